import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  eventFunctions,
  unsentCheckIntervalMinutes,
  type EventFunction,
  type EventFunctionName,
} from '../../core/api/catalogue/event-functions';
import type { ProductTable } from '../../core/api/catalogue/routes';
import { sendCheatSheetVariables } from '../../core/config/function-environment';
import { acknowledgeTracingWildcard, addBundledFunction } from './bundled-function';
import { sesEventDimensionName } from './mail';

/** The SES events the rule passes on: EventBridge's detail-types for SES's delivery, bounce and complaint. */
export const sesEventDetailTypes = ['Email Delivered', 'Email Bounced', 'Email Complaint Received'] as const;

export interface DeliveryTrackingProps {
  /** The requests table: the SES events update it, the unsent check reads it. */
  readonly requestsTable: ITable;
  /** The counters' table: the suppressed mailboxes live there. */
  readonly limitCountersTable: ITable;
  /** Only this configuration set's events reach the SES events function. */
  readonly configurationSetName: string;
  /** The stack's customer managed key: the log groups are encrypted with it. */
  readonly encryptionKey: IKey;
  /** @default logRetention of infra/constructs/encrypted-log-group.ts: a year */
  readonly logRetention?: RetentionDays;
  /** @default process.cwd() */
  readonly projectRoot?: string;
  /** @default each function's catalogue entry under projectRoot */
  readonly entries?: Readonly<Partial<Record<EventFunctionName, string>>>;
}

/** One event function as built. */
export interface TrackingFunction {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  /** Its logs' `service`: what the alarm descriptions call it. */
  readonly name: string;
}

/**
 * What happens to a request after SES accepted it, and what was never sent: the SES events
 * function (lambdas/ses-events/), invoked by a rule on the default event bus for this
 * configuration set's delivery, bounce and complaint events (Mail sends them there), and the
 * unsent check (lambdas/unsent-check/), run every 15 minutes by a schedule. Both from the
 * catalogue (core/api/catalogue/event-functions.ts), each with exactly its table grants.
 */
export class DeliveryTracking extends Construct {
  public readonly sesEvents: TrackingFunction;
  public readonly unsentCheck: TrackingFunction;
  /** `source: aws.ses`, the three detail-types, this configuration set only. */
  public readonly sesEventsRule: Rule;
  /** rate(15 minutes). */
  public readonly unsentCheckSchedule: Rule;
  /** Both functions, for their alarms. */
  public readonly functions: readonly TrackingFunction[];

  constructor(scope: Construct, id: string, props: DeliveryTrackingProps) {
    super(scope, id);
    const tables: Readonly<Partial<Record<ProductTable, ITable>>> = {
      requests: props.requestsTable,
      limitCounters: props.limitCountersTable,
    };
    const environment = {
      [sendCheatSheetVariables.tableName]: props.requestsTable.tableName,
      [sendCheatSheetVariables.limitCountersTableName]: props.limitCountersTable.tableName,
    };
    const build = (name: EventFunctionName): TrackingFunction => {
      const spec: EventFunction = eventFunctions[name];
      const built = addBundledFunction(this, spec.id, {
        entry: spec.entry,
        entryPath: props.entries?.[name],
        projectRoot: props.projectRoot,
        description: spec.description,
        memoryMb: spec.memoryMb,
        timeout: Duration.seconds(spec.timeoutSeconds),
        environment,
        encryptionKey: props.encryptionKey,
        logRetention: props.logRetention,
      });
      for (const access of spec.tableAccess) {
        const table = tables[access.table];
        if (!table) throw new Error(`${access.table} is granted to a delivery function but not given to it`);
        built.role.addToPolicy(new PolicyStatement({ actions: [...access.actions], resources: [table.tableArn] }));
      }
      acknowledgeTracingWildcard(built.role);
      Validations.of(built.function.node.defaultChild ?? built.function).acknowledge({
        id: 'Serverless::Serverless-LambdaDLQ',
        reason:
          "EventBridge invokes it asynchronously and Lambda retries a failed invocation twice; one that still fails is in its log group and pages through its Errors alarm. Its work is idempotent and a later event or run redoes it (the unsent check every 15 minutes; a lost SES event leaves the request 'sent', which is true). A dead-letter queue would hold it where nobody looks.",
      });
      return { ...built, name: spec.logService };
    };
    this.sesEvents = build('sesEvents');
    this.unsentCheck = build('unsentCheck');
    this.functions = [this.sesEvents, this.unsentCheck];

    const account = Stack.of(this).account;
    this.sesEventsRule = new Rule(this, 'SesEventsRule', {
      description:
        "The product's configuration set's delivery, bounce and complaint events: to the SES events function.",
      eventPattern: {
        source: ['aws.ses'],
        detailType: [...sesEventDetailTypes],
        account: [account],
        // SES's auto-tag: events of any other configuration set in the account are not ours.
        detail: { mail: { tags: { [sesEventDimensionName]: [props.configurationSetName] } } },
      },
      targets: [new LambdaFunction(this.sesEvents.function, { retryAttempts: 2, maxEventAge: Duration.hours(6) })],
    });
    this.unsentCheckSchedule = new Rule(this, 'UnsentCheckSchedule', {
      description: 'Counts the requests still unsent 15 minutes after they were saved (UnsentRequests).',
      schedule: Schedule.rate(Duration.minutes(unsentCheckIntervalMinutes)),
      // No retry: the next run, 15 minutes on, counts afresh.
      targets: [new LambdaFunction(this.unsentCheck.function, { retryAttempts: 0 })],
    });
    Validations.of(this.sesEventsRule.node.defaultChild ?? this.sesEventsRule).acknowledge({
      id: 'Serverless::Serverless-EventBusDLQ',
      reason:
        "EventBridge retries a failed delivery to the function for 6 hours; an SES event still undelivered leaves its request 'sent' (true: SES accepted it) and, for a bounce, SES's own account suppression list still stops the address. A dead-letter queue would hold it where nobody looks.",
    });
    Validations.of(this.unsentCheckSchedule.node.defaultChild ?? this.unsentCheckSchedule).acknowledge({
      id: 'Serverless::Serverless-EventBusDLQ',
      reason:
        'A scheduled tick carries nothing: a lost one is replaced by the next, 15 minutes later, which counts the same requests.',
    });
  }
}
