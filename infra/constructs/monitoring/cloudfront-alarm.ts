import { Aws, CfnCondition, Fn, Stack, Token, type CfnResource } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { cloudFrontErrorRate, cloudFrontMetricsRegion } from './metrics';
import { alarmRunbook, describeAlarm } from './runbook';

export interface CloudFrontAlarmProps extends AlarmFamilyProps {
  readonly distribution: IDistribution;
}

/**
 * CloudFront's 5xx error rate. Created only where CloudFront's metrics are (us-east-1): when
 * the stack's region is unknown at synth, it carries a condition on `AWS::Region`; when it is
 * known to be another region, it is absent (docs/operate.md).
 */
export class CloudFrontAlarm extends AlarmFamily {
  /** Absent when the stack is known to be outside us-east-1. */
  public readonly errorRateAlarm?: Alarm;
  /** True when the alarm exists only if the stack deploys to us-east-1: nothing may reference it. */
  public readonly conditional: boolean;

  constructor(scope: Construct, id: string, props: CloudFrontAlarmProps) {
    super(scope, id, props);
    const region = Stack.of(this).region;
    this.conditional = Token.isUnresolved(region);
    if (!this.conditional && region !== cloudFrontMetricsRegion) return;
    // 5% in 2 of 3 periods: runbook.ts, CloudFront5xxRate.
    this.errorRateAlarm = this.addAlarm('CloudFront5xxRate', {
      metric: cloudFrontErrorRate(props.distribution),
      threshold: 5,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        'CloudFront answered 5% or more of requests with 5xx in 2 of 3 five-minute periods: the site or the API is failing at the edge.',
        alarmRunbook.CloudFront5xxRate,
      ),
    });
    if (this.conditional) {
      const inCloudFrontRegion = new CfnCondition(this, 'InCloudFrontMetricsRegion', {
        expression: Fn.conditionEquals(Aws.REGION, cloudFrontMetricsRegion),
      });
      this.keepLogicalId(inCloudFrontRegion, ['InCloudFrontMetricsRegion']);
      (this.errorRateAlarm.node.defaultChild as CfnResource).cfnOptions.condition = inCloudFrontRegion;
    }
  }
}
