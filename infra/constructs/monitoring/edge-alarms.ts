import { Duration } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { MathExpression, Metric, TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { cloudFrontErrorRate } from './metrics';
import { alarmRunbook, describeAlarm } from './runbook';
import { errorBudget, fastBurnWindow, minimumEvents } from './service-level-objectives';

export interface EdgeAlarmsProps extends AlarmFamilyProps {
  readonly distribution: IDistribution;
}

/**
 * For a product stack outside us-east-1, where CloudFront's metrics are not: the availability
 * objective's fast burn over one hour on CloudFront's own requests and error rate, in one alarm
 * (the stage's tenth), counted only from as many requests as make one failure stay below it.
 */
export class EdgeAlarms extends AlarmFamily {
  public readonly fastBurnAlarm: Alarm;

  constructor(scope: Construct, id: string, props: EdgeAlarmsProps) {
    super(scope, id, props);
    const long = fastBurnWindow;
    const period = Duration.minutes(long.minutes);
    const minimum = minimumEvents('availability', long);
    const requests = new Metric({
      namespace: 'AWS/CloudFront',
      metricName: 'Requests',
      dimensionsMap: { DistributionId: props.distribution.distributionId, Region: 'Global' },
      statistic: 'Sum',
    });
    this.fastBurnAlarm = this.addAlarm('EdgeFastBurn', {
      metric: new MathExpression({
        expression: `IF(FILL(requests, 0) >= ${minimum}, FILL(errorRate, 0) / 100 / ${errorBudget('availability')}, 0)`,
        usingMetrics: { requests, errorRate: cloudFrontErrorRate(props.distribution) },
        period,
        label: "Availability objective's burn rate over 1 hour (CloudFront)",
      }),
      threshold: long.burnRate,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        `Over the last hour, with ${minimum} or more requests, CloudFront's 5xx burn the availability objective's budget at ${long.burnRate} times its rate or faster.`,
        alarmRunbook.EdgeFastBurn,
      ),
    });
  }
}
