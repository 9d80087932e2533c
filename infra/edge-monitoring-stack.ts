import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import { AlarmTopic } from './constructs/monitoring/alarm-topic';
import { CloudFrontAlarm } from './constructs/monitoring/cloudfront-alarm';

export interface EdgeMonitoringStackProps extends StackProps {
  /** The product stack's distribution, read through a cross-region reference. */
  readonly distribution: IDistribution;
  /** The product stack's name: the alarm is named `<it>-CloudFront5xxRate`, as it would be there. */
  readonly alarmNamePrefix: string;
  /** @default - no subscription (AlarmTopicProps.alarmEmail) */
  readonly alarmEmail?: string;
  /** @default `docs/operate.md` (AlarmFamilyProps.runbookBaseUrl) */
  readonly runbookBaseUrl?: string;
}

/**
 * The site's CloudFront 5xx alarm, in us-east-1, for a product stack deployed in another region:
 * CloudFront publishes its metrics only in us-east-1 and an alarm can only watch metrics of its own
 * region. CloudWatch notifies only SNS topics of its own region, so the alarm has a topic of its own
 * here, encrypted with its own key and subscribed to the same alarmEmail (one more confirmation link).
 * It reads the distribution from the product stack, so it is deployed after it (`cdk deploy --all`).
 *
 * Cost, at AWS's list prices: 0.10 USD a month for the alarm and 1 USD a month for the topic's key
 * (plus 1 USD a month for each of its first two yearly rotations).
 */
export class EdgeMonitoringStack extends Stack {
  public readonly topic: AlarmTopic;
  public readonly cloudFrontAlarm: CloudFrontAlarm;

  constructor(scope: Construct, id: string, props: EdgeMonitoringStackProps) {
    super(scope, id, props);
    // The alarm carries the product stack's name, so the topic lets CloudWatch publish for that name.
    this.topic = new AlarmTopic(this, 'AlarmTopic', {
      alarmEmail: props.alarmEmail,
      alarmNamePrefix: props.alarmNamePrefix,
    });
    this.cloudFrontAlarm = new CloudFrontAlarm(this, 'CloudFrontAlarm', {
      alarmAction: this.topic.alarmAction,
      alarmNamePrefix: props.alarmNamePrefix,
      runbookBaseUrl: props.runbookBaseUrl,
      distribution: props.distribution,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: "The SNS topic of the site's CloudFront 5xx alarm (us-east-1): subscribe to it here.",
      value: this.topic.topic.topicArn,
    });
  }
}
