import {
  alarmNotificationOf,
  pauseDecisionFor,
  readPauseSendingConfig,
} from '../../../lambdas/pause-sending/pause-sending';

const config = readPauseSendingConfig({
  CONFIGURATION_SET_NAME: 'product-set',
  PAUSE_ON_ALARMS: ' BounceRate , ComplaintRate ,',
});

describe('readPauseSendingConfig', () => {
  test('reads the configuration set and the comma-separated alarm names', () => {
    expect(config).toEqual({
      configurationSetName: 'product-set',
      pauseOnAlarms: new Set(['BounceRate', 'ComplaintRate']),
    });
  });

  test('refuses a configuration that names no alarm', () => {
    expect(() => readPauseSendingConfig({ CONFIGURATION_SET_NAME: 'product-set', PAUSE_ON_ALARMS: ' , ' })).toThrow(
      expect.objectContaining({ kind: 'misconfigured' }),
    );
  });
});

describe('alarmNotificationOf', () => {
  test("reads a CloudWatch alarm notification's name and new state", () => {
    const message = JSON.stringify({ AlarmName: 'BounceRate', NewStateValue: 'ALARM', OldStateValue: 'OK' });

    expect(alarmNotificationOf(message)).toEqual({ alarmName: 'BounceRate', newState: 'ALARM' });
  });

  test.each(['', 'ALARM', 'null', '[]', JSON.stringify({ AlarmName: 'BounceRate' })])('is undefined for %p', (text) => {
    expect(alarmNotificationOf(text)).toBeUndefined();
  });
});

describe('pauseDecisionFor', () => {
  test('pauses for a named alarm in ALARM', () => {
    expect(pauseDecisionFor({ alarmName: 'ComplaintRate', newState: 'ALARM' }, config)).toBe('pause');
  });

  test('does not pause for a named alarm back to OK', () => {
    expect(pauseDecisionFor({ alarmName: 'ComplaintRate', newState: 'OK' }, config)).toBe('not-alarm-state');
  });

  test('does not pause for an alarm it was not given, nor for a name that only contains one it was', () => {
    expect(pauseDecisionFor({ alarmName: 'Api5xx', newState: 'ALARM' }, config)).toBe('other-alarm');
    expect(pauseDecisionFor({ alarmName: 'BounceRateOld', newState: 'ALARM' }, config)).toBe('other-alarm');
  });
});
