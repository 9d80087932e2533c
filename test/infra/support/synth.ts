/**
 * Builds the stack the way infra/app.ts does (the context goes through parseDeploymentConfig),
 * with cdk.json's feature flags, small fixture build folders and, unless asked, no bundling.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Annotations, App, type AppProps } from 'aws-cdk-lib';
import { noWebAclWarning } from '../../../infra/constructs/site';
import { Template } from 'aws-cdk-lib/assertions';
import { buildAuditReport, type AuditReport } from '../../../infra/tools/audit-report';
import { addComplianceChecks, type ComplianceChecks } from '../../../infra/tools/compliance-checks';
import { parseDeploymentConfig } from '../../../infra/config';
import type { CheatSheetSiteStack, CheatSheetSiteStackProps } from '../../../infra/stack';
import { createProductStacks } from '../../../infra/stacks';
import type { EdgeMonitoringStack } from '../../../infra/edge-monitoring-stack';
import type { WebFirewallStack } from '../../../infra/web-firewall-stack';

/** jest and the cdk CLI both run from the repository root. */
export const repoRoot = process.cwd();
export const fixtures = {
  siteDirectory: path.join(repoRoot, 'test/infra/fixtures/site-build'),
  cheatSheetDirectory: path.join(repoRoot, 'test/infra/fixtures/cheat-sheet'),
};
export const exampleSender = 'cheatsheet@example.com';

/** cdk.json's context: the same feature flags the CLI passes to the app. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  return cdkJson.context;
}

/** The cloud assemblies this test file's apps wrote where no outdir was given: removed after the file. */
const temporaryOutdirs: string[] = [];
afterAll(() => {
  for (const outdir of temporaryOutdirs.splice(0)) rmSync(outdir, { recursive: true, force: true });
});

/** Where an App writes when given no outdir: a temporary folder, as the App's own default, but removed. */
function temporaryOutdir(): string {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cdk.out-test-'));
  temporaryOutdirs.push(outdir);
  return outdir;
}

/**
 * An App for a test, with cdk.json's context (feature flags) under `props.context`.
 *
 * aws-cdk-lib checks every template it synthesizes with its built-in CloudFormation validator, a
 * WebAssembly engine: about 1.3 s of CPU the first time in each jest file, and more on every
 * synth, which doubled the infra tests' time. Tests read the templates they assert on, so it is
 * off here unless asked; it runs where the product is synthesized as the CLI does: the app entry's
 * full synths (test/infra/app-entry.test.ts), whose default synth cfn-lint lints too.
 *
 * Stack traces are off too, as the cdk CLI turns them off (it keeps them only with --debug):
 * aws-cdk-lib records one in the metadata of every warning and annotation, and under jest each
 * goes through its source maps: 12 s of CPU over the infra tests (docs/performance.md).
 */
export function testApp(props: AppProps & { readonly builtinValidation?: boolean } = {}): App {
  const { builtinValidation = false, context, outdir, ...appProps } = props;
  const app = new App({
    ...appProps,
    outdir: outdir ?? temporaryOutdir(),
    builtinCloudFormationValidation: builtinValidation,
    stackTraces: false,
    context: { ...cdkJsonContext(), ...context },
  });
  captureValidationReports(app);
  return app;
}

const validationReports = new WeakMap<App, string[]>();

/**
 * The validation reports an App printed as it synthesized (warnings such as the DMARC advice
 * without senderDomain, as `cdk synth` shows them): aws-cdk-lib prints each with console.error;
 * the test app keeps them here instead, for the tests of those warnings to assert.
 */
export function validationReportsOf(app: App): readonly string[] {
  return validationReports.get(app) ?? [];
}

function captureValidationReports(app: App): void {
  const reports: string[] = [];
  validationReports.set(app, reports);
  const synth = app.synth.bind(app);
  app.synth = (options) => {
    const printError = console.error;
    console.error = (...data: unknown[]) => {
      const text = data.map(String).join(' ');
      if (text.includes('A copy of this report can be found in:')) reports.push(text);
      else printError(...data);
    };
    try {
      return synth(options);
    } finally {
      console.error = printError;
    }
  };
}

export interface SynthOptions {
  /**
   * Context values as given with `-c`; senderEmail defaults to the example sender, and `waf` to
   * false: the web ACL (on by default) makes the stack region-specific, so the tests of the
   * default give `waf` (or leave it undefined) and a region themselves.
   */
  readonly context?: Record<string, unknown>;
  /** Run esbuild for the two functions (slow); skipped by default. */
  readonly bundle?: boolean;
  /** Register the rule packs (AwsSolutions, Serverless, Control Tower) as the app does. */
  readonly complianceChecks?: boolean;
  /** Run aws-cdk-lib's built-in CloudFormation validator (see `testApp`). @default false */
  readonly builtinValidation?: boolean;
  /** Where the cloud assembly goes. @default a fresh temporary folder, removed after the test file */
  readonly outdir?: string;
  /**
   * The stack's account and region.
   *
   * @default - environment-agnostic, as `infra/app.ts` makes it
   */
  readonly env?: { readonly account?: string; readonly region?: string };
  /** Build folders other than the fixtures. */
  readonly buildOutput?: { readonly siteDirectory?: string; readonly cheatSheetDirectory?: string };
  /** What the CLI would pass as CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION (read only with waf). */
  readonly deploymentTarget?: { readonly account?: string; readonly region?: string };
  /** A copy of the catalogue of functions (the recipes' tests add an entry). @default the catalogue */
  readonly functions?: CheatSheetSiteStackProps['functions'];
}

export function createTestApp(options: SynthOptions = {}): {
  app: App;
  stack: CheatSheetSiteStack;
  webFirewallStack?: WebFirewallStack;
  edgeMonitoringStack?: EdgeMonitoringStack;
  checks?: ComplianceChecks;
} {
  const app = testApp({
    outdir: options.outdir,
    builtinValidation: options.builtinValidation,
    context: {
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      senderEmail: exampleSender,
      waf: 'false',
      ...options.context,
    },
  });
  const config = parseDeploymentConfig((key) => app.node.tryGetContext(key));
  const { site, webFirewall, edgeMonitoring } = createProductStacks(app, {
    stackName: 'First100DaysSite',
    config,
    env: options.env,
    deploymentTarget: options.deploymentTarget ?? {},
    buildOutput: { ...fixtures, ...options.buildOutput },
    functions: options.functions,
  });
  // The test default (waf=false) is no choice of the test's: its warning is acknowledged, not printed.
  if (!('waf' in (options.context ?? {}))) {
    Annotations.of(site).acknowledgeWarning(
      noWebAclWarning,
      'The tests run without the web ACL unless they ask for it.',
    );
  }
  const checks = options.complianceChecks ? addComplianceChecks(app) : undefined;
  return { app, stack: site, webFirewallStack: webFirewall, edgeMonitoringStack: edgeMonitoring, checks };
}

/**
 * Synthesizes with the rule packs into `outdir`, as `npm run synth` does, and reads the audit
 * report the app entry would write (open findings fail the synth before that).
 */
export function synthWithRulePacks(options: SynthOptions & { readonly outdir: string }): AuditReport {
  const { app, checks } = createTestApp({ ...options, complianceChecks: true });
  return buildAuditReport({ assembly: app.synth(), nagPacks: checks!.nagPacks, skippedPacks: checks!.skipped });
}

export function synthTemplate(options: SynthOptions = {}): Template {
  return Template.fromStack(createTestApp(options).stack);
}

/** The one resource of a type whose logical ID starts with `prefix` (the construct path). */
export function resourceByPrefix(
  template: Template,
  type: string,
  prefix: string,
): { logicalId: string; resource: { Properties: Record<string, unknown> } & Record<string, unknown> } {
  const matches = Object.entries(template.findResources(type)).filter(([logicalId]) => logicalId.startsWith(prefix));
  if (matches.length !== 1) {
    throw new Error(`Expected one ${type} starting with ${prefix}, found ${matches.length}`);
  }
  const [logicalId, resource] = matches[0];
  return { logicalId, resource: resource as never };
}

/**
 * What every private bucket of the stack carries: no public access, S3's own encryption (SSE-S3:
 * they hold only public content), versions, events to EventBridge.
 */
export const privateBucketHardening = {
  PublicAccessBlockConfiguration: {
    BlockPublicAcls: true,
    BlockPublicPolicy: true,
    IgnorePublicAcls: true,
    RestrictPublicBuckets: true,
  },
  BucketEncryption: {
    ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
  },
  VersioningConfiguration: { Status: 'Enabled' },
  NotificationConfiguration: { EventBridgeConfiguration: { EventBridgeEnabled: true } },
} as const;
