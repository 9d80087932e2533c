/**
 * CloudFront's verification of a new account: no API tells whether it is done, so the preflight
 * prints it as a manual step, with what to do when the deploy reports it.
 */

import type { CheckResult } from './check-result';

export function cloudFrontVerificationStep(): CheckResult {
  return {
    name: 'CloudFront account verification',
    status: 'MANUAL',
    detail: 'no API shows whether a new account may create CloudFront distributions yet.',
    fix:
      'if the deploy stops on "Your account must be verified before you can add new CloudFront resources", ' +
      'open an AWS Support case (Account and billing, CloudFront account verification) and, once it is verified, run the same deploy again.',
  };
}
