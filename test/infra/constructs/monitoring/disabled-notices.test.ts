/**
 * The key or the configuration set disabled: the rules' patterns against the events AWS documents
 * (SES's and KMS's own, and CloudTrail's record of a DisableKey), through EventBridge's matching.
 * The rules' wiring to the pages topic is in monitoring.test.ts, on the synthesized stage.
 */
import {
  keyDeletedPattern,
  keyDisabledPattern,
  sendingDisabledPattern,
} from '../../../../infra/constructs/monitoring/disabled-notices';
import { matchesPattern } from '../../../support/event-pattern';

const leadsKey = 'arn:aws:kms:us-east-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const stackKey = 'arn:aws:kms:us-east-1:111111111111:key/0987dcba-09fe-87dc-65ba-ab0987654321';
const otherKey = 'arn:aws:kms:us-east-1:111111111111:key/11111111-2222-3333-4444-555555555555';
const keys = [leadsKey, stackKey];

const cloudTrailCall = (eventName: string, keyArn: string) => ({
  source: 'aws.kms',
  'detail-type': 'AWS API Call via CloudTrail',
  resources: [],
  detail: {
    eventSource: 'kms.amazonaws.com',
    eventName,
    userIdentity: { arn: 'arn:aws:iam::111111111111:user/Alice' },
    requestParameters: { keyId: keyArn },
    resources: [{ accountId: '111111111111', type: 'AWS::KMS::Key', ARN: keyArn }],
  },
});

describe('the disabled notices', () => {
  test('SES disabling sending matches; SES re-enabling it does not', () => {
    expect(
      matchesPattern(sendingDisabledPattern, { source: 'aws.ses', 'detail-type': 'Sending Status Disabled' }),
    ).toBe(true);
    expect(matchesPattern(sendingDisabledPattern, { source: 'aws.ses', 'detail-type': 'Sending Status Enabled' })).toBe(
      false,
    );
  });

  test.each([
    ['DisableKey', leadsKey, true],
    ['ScheduleKeyDeletion', stackKey, true],
    ['DisableKey', otherKey, false],
    ['EnableKey', leadsKey, false],
  ] as const)('a CloudTrail record of %s on a key matches only for the stack keys (%#)', (call, key, matches) => {
    expect(matchesPattern(keyDisabledPattern(keys), cloudTrailCall(call, key))).toBe(matches);
  });

  test("KMS's own deletion event matches for the stack's keys alone", () => {
    const deletion = (keyArn: string) => ({
      source: 'aws.kms',
      'detail-type': 'KMS CMK Deletion',
      resources: [keyArn],
      detail: { 'key-id': keyArn.split('/')[1] },
    });

    expect(matchesPattern(keyDeletedPattern(keys), deletion(leadsKey))).toBe(true);
    expect(matchesPattern(keyDeletedPattern(keys), deletion(otherKey))).toBe(false);
  });
});
