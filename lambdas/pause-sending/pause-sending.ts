/**
 * Stops sending before SES stops the account. SES reviews an account at about 5% bounces or
 * 0.1% complaints and may pause all of its sending; the product's own alarms fire earlier (4%,
 * 0.08%) on the configuration set's reputation metrics. Their ALARM notification, through the
 * alarm topic, reaches this function, which turns sending off for the product's configuration
 * set only (SESv2 `PutConfigurationSetSendingOptions`, `SendingEnabled: false`). It never turns
 * sending back on: resuming is the operator's decision, once the cause is understood
 * (`npm run sending -- resume`).
 *
 * Which alarms pause: only those named in `PAUSE_ON_ALARMS`, in state ALARM. The alarm topic
 * carries every alarm of the product (errors, latency, refusals…), and pausing on one of those
 * would stop a working product; the check is here, in the function, so it holds whatever the
 * topic's subscription filters (a filter policy on the message body may spare the invocations
 * too, but nothing depends on it). OK and INSUFFICIENT_DATA change nothing. Knows nothing of
 * Lambda or SNS beyond the notification's text.
 */

import { PutConfigurationSetSendingOptionsCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { ProductError } from '../runtime/errors';

/** The fields of a CloudWatch alarm's SNS notification (its JSON message) this function reads. */
export interface AlarmNotification {
  readonly alarmName: string;
  /** `ALARM`, `OK` or `INSUFFICIENT_DATA`. */
  readonly newState: string;
}

export interface PauseSendingConfig {
  /** `CONFIGURATION_SET_NAME`: the product's configuration set, the only one paused. */
  readonly configurationSetName: string;
  /** `PAUSE_ON_ALARMS`: comma-separated names of the alarms that pause sending. */
  readonly pauseOnAlarms: ReadonlySet<string>;
}

export const pauseSendingVariables = {
  configurationSetName: 'CONFIGURATION_SET_NAME',
  pauseOnAlarms: 'PAUSE_ON_ALARMS',
} as const;

export function readPauseSendingConfig(env: Readonly<Record<string, string | undefined>>): PauseSendingConfig {
  const configurationSetName = env[pauseSendingVariables.configurationSetName]?.trim();
  if (!configurationSetName) {
    throw new ProductError(
      'misconfigured',
      `Environment variable ${pauseSendingVariables.configurationSetName} is not set`,
    );
  }
  const pauseOnAlarms = new Set(
    (env[pauseSendingVariables.pauseOnAlarms] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
  if (pauseOnAlarms.size === 0) {
    throw new ProductError(
      'misconfigured',
      `Environment variable ${pauseSendingVariables.pauseOnAlarms} names no alarm`,
    );
  }
  return { configurationSetName, pauseOnAlarms };
}

/** The notification in an SNS message from CloudWatch, or undefined for any other message. */
export function alarmNotificationOf(message: string): AlarmNotification | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { AlarmName, NewStateValue } = parsed as Record<string, unknown>;
  if (typeof AlarmName !== 'string' || typeof NewStateValue !== 'string') return undefined;
  return { alarmName: AlarmName, newState: NewStateValue };
}

export type PauseDecision = 'pause' | 'not-alarm-state' | 'other-alarm';

export function pauseDecisionFor(notification: AlarmNotification, config: PauseSendingConfig): PauseDecision {
  if (!config.pauseOnAlarms.has(notification.alarmName)) return 'other-alarm';
  return notification.newState === 'ALARM' ? 'pause' : 'not-alarm-state';
}

/** Turns sending off for the configuration set; pausing a paused set changes nothing. */
export async function pauseConfigurationSet(ses: SESv2Client, configurationSetName: string): Promise<void> {
  await ses.send(
    new PutConfigurationSetSendingOptionsCommand({ ConfigurationSetName: configurationSetName, SendingEnabled: false }),
  );
}
