import { Aws, RemovalPolicy, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyDocument, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey, Key } from 'aws-cdk-lib/aws-kms';
import { SubscriptionProtocol, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription, UrlSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { accountAdministersTheKey, customerKey } from '../customer-key';
import { logicalIdBeside } from './stable-logical-id';

export interface AlarmTopicProps {
  /**
   * Subscribe this address to the topic by e-mail (SNS mails a confirmation link first).
   *
   * @default - no subscription: the alarms still exist, on the dashboard and in the console
   */
  readonly alarmEmail?: string;
  /**
   * Subscribe this HTTPS endpoint (the operator's paging service; SNS posts a confirmation first).
   *
   * @default - none
   */
  readonly httpsEndpoint?: string;
  /**
   * What the notifications' sender shows.
   *
   * @default 'First 100 Days site alarms'
   */
  readonly displayName?: string;
  /**
   * The KMS key encrypting the topic; CloudWatch is allowed to use it.
   *
   * @default - a new customer managed key for the topic alone, rotated yearly (about 1 USD a month)
   */
  readonly encryptionKey?: IKey;
  /**
   * What the names of the alarms that notify the topic start with: CloudWatch may publish (and use
   * the key) for `alarm:<it>-*` alone. The edge-monitoring stack names its alarm after the product
   * stack, not after itself.
   *
   * @default - the stack's name (alarm-family.ts names every alarm `<stack name>-<id>`)
   */
  readonly alarmNamePrefix?: string;
}

/**
 * An SNS topic alarms notify (the pages topic, or the tickets topic): encrypted with KMS, HTTPS
 * only, and open to this account's CloudWatch alarms alone.
 */
export class AlarmTopic extends Construct {
  /** The key encrypting the topic: the one given, or the topic's own. */
  public readonly encryptionKey: IKey;
  public readonly topic: Topic;
  /** The action each alarm adds for ALARM and OK. */
  public readonly alarmAction: SnsAction;

  constructor(scope: Construct, id: string, props: AlarmTopicProps = {}) {
    super(scope, id);
    this.encryptionKey = props.encryptionKey ?? this.createKey();
    // CloudWatch encrypts what it publishes to the topic with this key (AWS's documented key
    // policy), for the alarms named with the prefix alone: CloudWatch sends the alarm's ARN and
    // account with the KMS call, as with its sns:Publish below.
    const alarmNamePrefix = props.alarmNamePrefix ?? Stack.of(this).stackName;
    const alarms = `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:${alarmNamePrefix}-*`;
    this.encryptionKey.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublishToTheTopics',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: {
          ArnLike: { 'aws:SourceArn': alarms },
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
        },
      }),
    );

    // `Default`: the topic keeps the logical id it had before this construct wrapped it (a new id
    // would replace the topic and drop every confirmed e-mail subscription).
    this.topic = new Topic(this, 'Default', {
      displayName: props.displayName ?? 'First 100 Days site alarms',
      masterKey: this.encryptionKey,
      // A Deny on aws:SecureTransport = false: nothing publishes or subscribes over plain HTTP.
      enforceSSL: true,
    });
    // The topic policy replaces SNS's default one, so CloudWatch gets an explicit grant, for
    // the alarms named with the prefix only (every alarm name starts with it: alarm-family.ts).
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          ArnLike: { 'aws:SourceArn': alarms },
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
        },
      }),
    );
    const subscribers = [
      ...(props.alarmEmail ? [new EmailSubscription(props.alarmEmail)] : []),
      ...(props.httpsEndpoint
        ? [new UrlSubscription(props.httpsEndpoint, { protocol: SubscriptionProtocol.HTTPS })]
        : []),
    ];
    for (const subscriber of subscribers) {
      const subscription = this.topic.addSubscription(subscriber);
      Validations.of(subscription.node.defaultChild ?? subscription).acknowledge({
        id: 'Serverless::Serverless-SNSRedrivePolicy',
        reason:
          'A notification SNS cannot deliver (after its own retries) leaves nothing unseen: the alarm stays in its state in the CloudWatch console and on the dashboard. A dead-letter queue would hold the notification where nobody looks, and would itself need watching.',
      });
    }
    this.alarmAction = new SnsAction(this.topic);
  }

  private createKey(): Key {
    // Rotated, and no grant but for AWS services, as every key of the app (customer-key.ts).
    const key = customerKey(this, 'Key', {
      description: 'Encrypts the alarm topic of the First 100 Days site.',
      // The topic stores no message once delivered: nothing is left to decrypt after a teardown.
      removalPolicy: RemovalPolicy.DESTROY,
      // Only CloudWatch (its statement below) uses the key; the account administers it, as the
      // leads' key: a key statement with kms:Decrypt and no kms:ViaService would decrypt by any path.
      policy: new PolicyDocument({ statements: [accountAdministersTheKey()] }),
    });
    (key.node.defaultChild as CfnElement).overrideLogicalId(logicalIdBeside(this, [`${this.node.id}Key`, 'Resource']));
    return key;
  }
}
