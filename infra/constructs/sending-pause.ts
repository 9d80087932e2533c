import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement, ServicePrincipal, type Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  FilterOrPolicy,
  Subscription,
  SubscriptionFilter,
  SubscriptionProtocol,
  type ITopic,
} from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { pauseSendingVariables } from '../../lambdas/pause-sending/pause-sending';
import { acknowledgeTracingWildcard, addBundledFunction } from './bundled-function';

/** The pause function's handler, from the repository root. */
export const pauseSendingEntry = 'lambdas/pause-sending/handler.ts';

/** The only action the pause function may call, on the product's configuration set alone. */
export const pauseSendingAction = 'ses:PutConfigurationSetSendingOptions';

export interface SendingPauseProps {
  /** The alarm topic: the function subscribes to it. */
  readonly alarmTopic: ITopic;
  /** The alarms whose ALARM state pauses sending (the configuration set's bounce and complaint rates). */
  readonly pauseOnAlarms: readonly IAlarm[];
  /** The product's configuration set: the only one it may pause. */
  readonly configurationSetName: string;
  readonly configurationSetArn: string;
  /** The stack's customer managed key: the log group is encrypted with it. */
  readonly encryptionKey: IKey;
  /** @default logRetention of infra/constructs/encrypted-log-group.ts: a year */
  readonly logRetention?: RetentionDays;
  /** @default process.cwd() */
  readonly projectRoot?: string;
  /** @default pauseSendingEntry under projectRoot */
  readonly entry?: string;
}

/**
 * Stops sending before SES stops the account: when the configuration set's bounce or complaint
 * alarm goes to ALARM, the alarm topic invokes a small function that turns sending off for this
 * configuration set (lambdas/pause-sending/). It never turns it back on: the operator resumes
 * with `npm run sending -- resume --stack NAME` (docs/operate.md).
 */
export class SendingPause extends Construct {
  public readonly function: NodejsFunction;
  public readonly role: Role;
  public readonly logGroup: LogGroup;
  public readonly subscription: Subscription;

  constructor(scope: Construct, id: string, props: SendingPauseProps) {
    super(scope, id);
    const alarmNames = props.pauseOnAlarms.map((alarm) => alarm.alarmName);
    const built = addBundledFunction(this, 'PauseSending', {
      entry: pauseSendingEntry,
      entryPath: props.entry,
      projectRoot: props.projectRoot,
      description: 'Pauses sending for the configuration set when its bounce or complaint alarm fires.',
      // One SES call: the smallest size is plenty; 10 s outlasts the SDK's retries of one call.
      memoryMb: 128,
      timeout: Duration.seconds(10),
      environment: {
        [pauseSendingVariables.configurationSetName]: props.configurationSetName,
        [pauseSendingVariables.pauseOnAlarms]: alarmNames.join(','),
      },
      encryptionKey: props.encryptionKey,
      logRetention: props.logRetention,
    });
    this.function = built.function;
    this.role = built.role;
    this.logGroup = built.logGroup;
    this.role.addToPolicy(
      new PolicyStatement({ actions: [pauseSendingAction], resources: [props.configurationSetArn] }),
    );
    acknowledgeTracingWildcard(this.role);

    // Only those alarms' ALARM notifications invoke it: the topic carries every alarm of the
    // product, on ALARM and on OK. The function checks the same again (pause-sending.ts).
    this.subscription = new Subscription(this, 'AlarmSubscription', {
      topic: props.alarmTopic,
      protocol: SubscriptionProtocol.LAMBDA,
      endpoint: this.function.functionArn,
      filterPolicyWithMessageBody: {
        AlarmName: FilterOrPolicy.filter(SubscriptionFilter.stringFilter({ allowlist: alarmNames })),
        NewStateValue: FilterOrPolicy.filter(SubscriptionFilter.stringFilter({ allowlist: ['ALARM'] })),
      },
    });
    // SNS may invoke it from this topic (SourceArn) in this account (SourceAccount, Control
    // Tower's CT.LAMBDA.PR.2), as the API's routes may their functions.
    this.function.addPermission('InvokeFromAlarmTopic', {
      principal: new ServicePrincipal('sns.amazonaws.com'),
      sourceArn: props.alarmTopic.topicArn,
      sourceAccount: Stack.of(this).account,
    });
    Validations.of(this.subscription.node.defaultChild ?? this.subscription).acknowledge({
      id: 'Serverless::Serverless-SNSRedrivePolicy',
      reason:
        'A notification SNS cannot deliver to the pause function leaves nothing unseen: the same alarm e-mails the operator, whose runbook step is to check the sending state (npm run sending -- status). A dead-letter queue would hold it where nobody looks.',
    });
    Validations.of(this.function.node.defaultChild ?? this.function).acknowledge({
      id: 'Serverless::Serverless-LambdaDLQ',
      reason:
        "SNS invokes it asynchronously and Lambda retries a failed invocation twice; a pause that still fails is in its log group, and the same alarm has already paged the operator by e-mail, whose runbook step is to check the configuration set's sending state. A dead-letter queue would hold the notification where nobody looks.",
    });
  }
}
