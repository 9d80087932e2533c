import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

/**
 * cdk-nag v3's AwsSolutions rules as a policy-validation plugin on the whole app: findings land
 * in `cdk.out/validation-report.json`, and an unacknowledged error fails the synth. Shared by
 * the app entry and the tests, so both check with exactly the same settings.
 */
export function addComplianceChecks(app: App): void {
  Validations.of(app).addPlugins(
    // Also copies every acknowledgement into the template's resource Metadata (`cdk_nag`), so
    // an auditor reading a template sees each accepted finding and its reason in place.
    new AwsSolutionsChecks(app, { writeSuppressionsToCloudFormation: true }),
  );
}
