/**
 * The CDK app (cdk.json: `npx tsx infra/app.ts`). Reads and validates the context once (a named
 * stage's too), then builds the stacks (infra/stacks.ts), runs the rule packs (AwsSolutions, Serverless, Control
 * Tower) on every synth and writes `cdk.out/audit-report.md`.
 */
import { App } from 'aws-cdk-lib';
import { ConfigError, parseDeploymentConfig } from './config';

const app = new App();
/** The stage synthesized, for the audit report's stamp. */
let stage: string | undefined;

try {
  const config = parseDeploymentConfig((key) => app.node.tryGetContext(key));
  stage = config.stage?.name;
  // Loaded once the context is valid: a refused one is answered in about a second, not two.
  const { createAppStacks } = await import('./stacks');
  createAppStacks(app, {
    config,
    // The CLI's own resolution of where `cdk deploy` goes; read only with the web ACL (the default) and no stage.
    deploymentTarget: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    description: 'First 100 Days: the book site, its cheat-sheet API, table, PDF and mail identity.',
  });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // The message is for the operator: no stack trace in front of it.
  console.error(error.message);
  process.exit(1);
}

const { addComplianceChecks } = await import('./tools/compliance-checks');
const { auditReportFileName, writeAuditReport } = await import('./tools/audit-report');
const checks = addComplianceChecks(app);

const assembly = app.synth();
const { stale } = writeAuditReport({ assembly, nagPacks: checks.nagPacks, skippedPacks: checks.skipped, stage });
if (stale.length > 0) {
  // A reason nobody needs any more is a reason nobody checks: remove it, or find why its finding went.
  console.error(
    [
      `Acknowledgements that matched no finding (see ${auditReportFileName}):`,
      ...stale.map((entry) => `  - ${entry.id} at ${entry.path}`),
    ].join('\n'),
  );
  process.exit(1);
}
