import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import { AlarmTopic } from './constructs/monitoring/alarm-topic';
import { EdgeAlarms } from './constructs/monitoring/edge-alarms';

export interface EdgeMonitoringStackProps extends StackProps {
  /** The product stack's distribution, read through a cross-region reference. */
  readonly distribution: IDistribution;
  /** The product stack's name: the alarm is named `<it>-EdgeFastBurn`. */
  readonly alarmNamePrefix: string;
  /** @default - no e-mail subscription (AlarmTopicProps.alarmEmail) */
  readonly alarmEmail?: string;
  /** @default - no HTTPS subscription (AlarmTopicProps.httpsEndpoint) */
  readonly pageEndpoint?: string;
  /** @default `docs/operate.md` (AlarmFamilyProps.runbookBaseUrl) */
  readonly runbookBaseUrl?: string;
}

/**
 * The availability objective's fast burn on CloudFront's own metrics, in us-east-1, for a product
 * stack deployed in another region: CloudFront publishes its metrics only in us-east-1 and an
 * alarm can only watch metrics of its own region. CloudWatch notifies only SNS topics of its own
 * region, so the alarm has a pages topic of its own here, encrypted with its own key and subscribed
 * to the same alarmEmail and pageEndpoint (one more confirmation each). It reads the distribution
 * from the product stack, so it is deployed after it (`cdk deploy --all`).
 *
 * Cost, at AWS's list prices: 0.20 USD a month for the alarm's two metrics and 1 USD a month for
 * the topic's key (plus 1 USD a month for each of its first two yearly rotations).
 */
export class EdgeMonitoringStack extends Stack {
  public readonly topic: AlarmTopic;
  public readonly edgeAlarms: EdgeAlarms;

  constructor(scope: Construct, id: string, props: EdgeMonitoringStackProps) {
    super(scope, id, props);
    // The alarm carries the product stack's name, so the topic lets CloudWatch publish for that name.
    this.topic = new AlarmTopic(this, 'AlarmTopic', {
      displayName: 'First 100 Days site: page',
      alarmEmail: props.alarmEmail,
      httpsEndpoint: props.pageEndpoint,
      alarmNamePrefix: props.alarmNamePrefix,
    });
    this.edgeAlarms = new EdgeAlarms(this, 'EdgeAlarms', {
      // A page only: no ticket is raised here.
      alarmActions: { page: this.topic.alarmAction, ticket: this.topic.alarmAction },
      alarmNamePrefix: props.alarmNamePrefix,
      runbookBaseUrl: props.runbookBaseUrl,
      distribution: props.distribution,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: "The pages topic of the site's CloudFront alarm (us-east-1): subscribe to it here.",
      value: this.topic.topic.topicArn,
    });
  }
}
