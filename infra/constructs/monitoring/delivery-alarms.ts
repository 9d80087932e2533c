import { Duration } from 'aws-cdk-lib';
import { Metric, TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { unsentCheckIntervalMinutes } from '../../../core/api/catalogue/functions';
import {
  deliveryServices,
  functionServices,
  metricDimensions,
  metricsNamespace,
  unsentRequestsMetric,
} from '../../../core/observability/product-metrics';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { fiveMinutes, productMetric } from './metrics';
import { alarmRunbook, describeAlarm } from './runbook';

export type DeliveryAlarmsProps = AlarmFamilyProps;

/**
 * Nothing left unsent without anyone knowing: the unsent check's count of requests still unsent
 * 15 minutes after they were saved, a send SES accepted that could not be recorded, and a send
 * whose outcome is unknown. Each pages at one: each is one reader who may have no e-mail, and
 * nothing sends it again by itself.
 */
export class DeliveryAlarms extends AlarmFamily {
  public readonly unsentRequestsAlarm: Alarm;
  public readonly sendNotRecordedAlarm: Alarm;
  public readonly sendOutcomeUnknownAlarm: Alarm;

  constructor(scope: Construct, id: string, props: DeliveryAlarmsProps) {
    super(scope, id, props);
    const checkPeriod = Duration.minutes(unsentCheckIntervalMinutes);
    // The check reports every run, zero included; a check that stops running pages through its
    // Errors alarm, so missing data here is not a breach.
    this.unsentRequestsAlarm = this.addAlarm('UnsentRequests', {
      metric: new Metric({
        namespace: metricsNamespace,
        metricName: unsentRequestsMetric,
        dimensionsMap: { [metricDimensions.service]: deliveryServices.unsentCheck },
        statistic: 'Maximum',
        period: checkPeriod,
      }),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        'One or more requests are still unsent 15 minutes after they were saved, for a reason nobody was told of (no send came, a send is stuck, or it failed for a fault of ours).',
        alarmRunbook.UnsentRequests,
      ),
    });
    this.sendNotRecordedAlarm = this.addAlarm('SendNotRecorded', {
      metric: productMetric('SendNotRecorded', functionServices.sendCheatSheet, fiveMinutes),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        "SES accepted a cheat sheet but its request could not be updated: the record says 'sending' though the e-mail went out.",
        alarmRunbook.SendNotRecorded,
      ),
    });
    this.sendOutcomeUnknownAlarm = this.addAlarm('SendOutcomeUnknown', {
      metric: productMetric('SendOutcomeUnknown', functionServices.sendCheatSheet, fiveMinutes),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        "A SendEmail call left and got no answer: SES may or may not have sent it. The request is 'unknown' and nothing sends it again by itself.",
        alarmRunbook.SendOutcomeUnknown,
      ),
    });
  }
}
