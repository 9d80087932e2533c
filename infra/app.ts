/**
 * The CDK app (cdk.json: `npx tsx infra/app.ts`). Reads and validates the context once, then
 * builds the stack and runs cdk-nag's AwsSolutions checks on every synth.
 */
import { App } from 'aws-cdk-lib';
import { addComplianceChecks } from './compliance-checks';
import { ConfigError, parseDeploymentConfig, type DeploymentConfig } from './config';
import { CheatSheetSiteStack } from './stack';

const stackName = 'First100DaysSite';

const app = new App();

let config: DeploymentConfig;
try {
  config = parseDeploymentConfig((key) => app.node.tryGetContext(key));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // The message is for the operator: no stack trace in front of it.
  console.error(error.message);
  process.exit(1);
}

new CheatSheetSiteStack(app, stackName, {
  config,
  description: 'First 100 Days: the book site, its cheat-sheet API, table, PDF and mail identity.',
});

addComplianceChecks(app);

app.synth();
