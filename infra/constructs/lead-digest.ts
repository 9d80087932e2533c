import { Duration, Validations } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { eventFunctions } from '../../core/api/catalogue/event-functions';
import { leadDigestVariables } from '../../lambdas/lead-digest/lead-digest';
import { acknowledgeTracingWildcard, addBundledFunction } from './bundled-function';
import { LeadDigestAlarms } from './monitoring/lead-digest-alarms';

/** The digest function, as the catalogue of functions no route invokes describes it. */
const leadDigestSpec = eventFunctions.leadDigest;

/** The digest function's handler, from the repository root. */
export const leadDigestEntry = leadDigestSpec.entry;

/** Mondays at 07:00 UTC: the week's leads before the author's working week starts, in Europe and the Americas' night. */
export const leadDigestSchedule = Schedule.cron({ weekDay: 'MON', hour: '7', minute: '0' });

export interface LeadDigestProps {
  /** Where the digest goes (`authorEmail`). */
  readonly authorEmail: string;
  /** The requests table: the function may Scan it, and nothing else. */
  readonly table: ITable;
  /** The From address and its identity: the function may SendEmail as it, through the configuration set. */
  readonly senderEmail: string;
  readonly senderIdentityArn: string;
  readonly configurationSetName: string;
  readonly configurationSetArn: string;
  /** The stack's key: the log group. */
  readonly encryptionKey: IKey;
  /** The alarm topic's action and the runbook's address, as the other alarms have them. */
  readonly alarmAction: IAlarmAction;
  /** @default `docs/operate.md` (AlarmFamilyProps.runbookBaseUrl) */
  readonly runbookBaseUrl?: string;
  /** @default the repository root (process.cwd()) */
  readonly projectRoot?: string;
  /** @default leadDigestEntry under projectRoot */
  readonly entry?: string;
}

/**
 * The author hears about leads: every Monday an EventBridge rule invokes a small function
 * (lambdas/lead-digest/) that mails the author the week's new requests as the export's CSV, with
 * the counts by delivery status. Only with `authorEmail` (infra/stack.ts); its errors alarm opens a
 * ticket. Cost: well within Lambda's and EventBridge's free tiers (four invocations a month) and
 * SES's 0.10 USD per 1,000 e-mails.
 */
export class LeadDigest extends Construct {
  public readonly function: NodejsFunction;
  public readonly role: Role;
  public readonly logGroup: LogGroup;
  public readonly rule: Rule;
  public readonly alarms: LeadDigestAlarms;

  constructor(scope: Construct, id: string, props: LeadDigestProps) {
    super(scope, id);
    const built = addBundledFunction(this, 'LeadDigest', {
      entry: leadDigestEntry,
      entryPath: props.entry,
      projectRoot: props.projectRoot,
      description: leadDigestSpec.description,
      memoryMb: leadDigestSpec.memoryMb,
      timeout: Duration.seconds(leadDigestSpec.timeoutSeconds),
      environment: {
        [leadDigestVariables.tableName]: props.table.tableName,
        [leadDigestVariables.senderEmail]: props.senderEmail,
        [leadDigestVariables.authorEmail]: props.authorEmail,
        [leadDigestVariables.configurationSetName]: props.configurationSetName,
      },
      encryptionKey: props.encryptionKey,
    });
    this.function = built.function;
    this.role = built.role;
    this.logGroup = built.logGroup;
    for (const access of leadDigestSpec.tableAccess) {
      this.role.addToPolicy(new PolicyStatement({ actions: [...access.actions], resources: [props.table.tableArn] }));
    }
    this.role.addToPolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [props.senderIdentityArn, props.configurationSetArn],
      }),
    );
    acknowledgeTracingWildcard(this.role);

    this.rule = new Rule(this, 'Schedule', {
      description: 'Invokes the weekly digest of new leads (Mondays 07:00 UTC).',
      schedule: leadDigestSchedule,
      targets: [new LambdaFunction(this.function, { retryAttempts: 2, maxEventAge: Duration.hours(6) })],
    });
    Validations.of(this.rule.node.defaultChild ?? this.rule).acknowledge({
      id: 'Serverless::Serverless-EventBusDLQ',
      reason:
        "The schedule's event carries nothing but the time: one EventBridge could not deliver (after two retries within six hours) is a missed digest, which the next Monday's makes up for, and the leads stay in the table for npm run leads -- export. A dead-letter queue would hold that time stamp where nobody looks.",
    });
    Validations.of(this.function.node.defaultChild ?? this.function).acknowledge({
      id: 'Serverless::Serverless-LambdaDLQ',
      reason:
        'EventBridge invokes it asynchronously and Lambda retries a failed invocation twice; a digest that still fails raises its errors alarm (a ticket), and the leads are still in the table for npm run leads -- export. A dead-letter queue would hold a schedule event that says nothing but the time.',
    });

    this.alarms = new LeadDigestAlarms(this, 'Alarms', {
      alarmAction: props.alarmAction,
      runbookBaseUrl: props.runbookBaseUrl,
      function: this.function,
    });
  }
}
