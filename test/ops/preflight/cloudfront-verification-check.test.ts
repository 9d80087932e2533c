import { cloudFrontVerificationStep } from '../../../ops/preflight/cloudfront-verification-check';

describe('the CloudFront verification step', () => {
  test('is a manual step naming the error and the support case', () => {
    const step = cloudFrontVerificationStep();
    expect(step.status).toBe('MANUAL');
    expect(step.fix).toContain('Your account must be verified');
    expect(step.fix).toContain('AWS Support case');
  });
});
