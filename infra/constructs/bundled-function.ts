import path from 'node:path';
import { AssetHashType, CfnOutput, DockerImage, Validations, type Duration } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Code, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { bundleFunction, functionHandler, functionNodeOptions } from '../function-bundle';
import { EncryptedLogGroup } from './encrypted-log-group';

/** The newest Node.js runtime aws-cdk-lib 2.276 offers; esbuild targets the same version. */
export const functionRuntime = Runtime.NODEJS_24_X;

/**
 * The function's code: bundled by infra/function-bundle.ts with the local esbuild (never Docker):
 * the handler's module as `index.mjs`, loaded in Lambda's init phase, and the SDK's on-demand
 * chunks beside it.
 * NodejsFunction's own bundling writes one file (`--outfile`), which code splitting cannot use.
 * Hashed by the output, as NodejsFunction hashes its bundles.
 */
function functionCode(projectRoot: string, entryPath: string): Code {
  return Code.fromAsset(projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: local bundling always succeeds or throws (tryBundle returns true).
      image: DockerImage.fromRegistry('local-esbuild-only'),
      // Never run either, but it names the entry: CDK keys its in-process cache of bundles on
      // these options as JSON, where tryBundle (a function) does not appear, so without it every
      // function of a synth would get the first one's bundle.
      command: ['bundle', path.relative(projectRoot, entryPath)],
      local: {
        tryBundle(outputDir) {
          bundleFunction({ entry: entryPath, outdir: outputDir, projectRoot });
          return true;
        },
      },
    },
  });
}

export interface BundledFunctionOptions {
  /** The handler's file, from projectRoot (it exports `handler`), unless `entryPath` is given. */
  readonly entry: string;
  /** @default entry under projectRoot */
  readonly entryPath?: string;
  /** @default process.cwd() */
  readonly projectRoot?: string;
  readonly description: string;
  readonly memoryMb: number;
  readonly timeout: Duration;
  readonly environment: Readonly<Record<string, string>>;
  /** The stack's customer managed key: the log group is encrypted with it. */
  readonly encryptionKey: IKey;
  /** @default logRetention of infra/constructs/encrypted-log-group.ts: a year */
  readonly logRetention?: RetentionDays;
}

/** What addBundledFunction made. */
export interface BundledFunction {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
}

/**
 * Every function of the product, built one way: bundled with esbuild (infra/function-bundle.ts), arm64,
 * its own role (no AWS managed policy: it may write to its log group, and its caller grants the
 * rest), its own encrypted log group, active tracing. Created directly in `scope` as
 * `<idPrefix>Logs`, `<idPrefix>Role` and `<idPrefix>Function`, so the callers keep their logical ids.
 */
export function addBundledFunction(
  scope: Construct,
  idPrefix: string,
  options: BundledFunctionOptions,
): BundledFunction {
  const projectRoot = options.projectRoot ?? process.cwd();
  const logGroup = new EncryptedLogGroup(scope, `${idPrefix}Logs`, {
    encryptionKey: options.encryptionKey,
    retention: options.logRetention,
  });
  const role = new Role(scope, `${idPrefix}Role`, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: options.description,
  });
  logGroup.grantWrite(role);
  const fn = new NodejsFunction(scope, `${idPrefix}Function`, {
    code: functionCode(projectRoot, options.entryPath ?? path.join(projectRoot, options.entry)),
    handler: functionHandler,
    runtime: functionRuntime,
    architecture: Architecture.ARM_64, // cheaper per GB-second than x86, same Node code
    memorySize: options.memoryMb,
    timeout: options.timeout,
    description: options.description,
    role,
    logGroup,
    environment: {
      ...options.environment,
      NODE_OPTIONS: functionNodeOptions,
    },
    // Lambda's own segments (init, invocation, overhead) in X-Ray; no SDK instrumentation in
    // the bundle: it would cost more cold start than it tells.
    tracing: Tracing.ACTIVE,
  });
  // The name to open at 3 a.m. (docs/operate.md): an output per function, named after it.
  const output = new CfnOutput(scope, `${idPrefix}LogGroupName`, {
    description: `The log group of the ${idPrefix} function: ${options.description}`,
    value: logGroup.logGroupName,
  });
  output.overrideLogicalId(`${idPrefix}LogGroupName`);
  return { function: fn, role, logGroup };
}

/** Acknowledges, on the role's default policy, the one wildcard every function has: X-Ray's. */
export function acknowledgeTracingWildcard(role: Role): void {
  Validations.of(role.node.findChild('DefaultPolicy')).acknowledge({
    id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
    reason:
      'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords, which X-Ray only grants on *: they have no resource-level permissions.',
  });
}
