/**
 * The rule packs every synth runs, as CDK policy-validation plugins on the whole app: cdk-nag v3's
 * AwsSolutions and Serverless packs, and AWS Control Tower's proactive controls (cfn-guard).
 * Findings land in `cdk.out/validation-report.json`; any finding nobody acknowledged fails the
 * synth. Shared by the app entry and the tests, so both check with exactly the same settings.
 *
 * Acknowledgements are named `<pack>::<rule>` (e.g. `AwsSolutions::AwsSolutions-CFR1`) and made
 * on the resource they concern: the nag packs' in the constructs, beside the code they explain;
 * Control Tower's from the one list in infra/tools/control-tower-exceptions.ts. CDK matches each to its
 * findings and records both in the validation report, which the audit report reads.
 */
import { CfnResource, Stack, Token, Validations, type App, type IPolicyValidationContext } from 'aws-cdk-lib';
import { AwsSolutionsChecks, NagRuleCompliance, ServerlessChecks, type IApplyRule, type NagPack } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { ControlTowerChecks, controlTowerControls, controlTowerPluginName } from './control-tower-checks';
import { controlTowerExceptions, type ControlTowerException, type ExceptionFacts } from './control-tower-exceptions';
import { CheatSheetSiteStack } from '../stack';

/** One rule of a nag pack applied to one resource. */
export interface RuleEvaluation {
  /** e.g. `AwsSolutions-S1`, `Serverless-LambdaDLQ` */
  readonly rule: string;
  /** The resource's construct path. */
  readonly path: string;
  readonly compliant: boolean;
}

/** A nag pack that also remembers, per rule and resource, what it found: what passed, for the audit report. */
export interface EvaluatedNagPack extends NagPack {
  readonly evaluations: readonly RuleEvaluation[];
}

/**
 * The rule as the pack will call it, recording each verdict. cdk-nag's packs apply every rule
 * through `applyRule`, their extension point, and name the rule after its function.
 */
function recording(packName: string, params: IApplyRule, evaluations: RuleEvaluation[]): IApplyRule {
  const ruleName = params.rule.name;
  const ruleId = `${packName}-${params.ruleSuffixOverride ?? ruleName}`;
  const recorded = (node: CfnResource) => {
    const result = params.rule(node);
    // Not applicable: the rule did not look at this resource.
    if (result !== NagRuleCompliance.NOT_APPLICABLE) {
      const compliant = result === NagRuleCompliance.COMPLIANT || (Array.isArray(result) && result.length === 0);
      evaluations.push({ rule: ruleId, path: node.node.path, compliant });
    }
    return result;
  };
  Object.defineProperty(recorded, 'name', { value: ruleName });
  return { ...params, rule: recorded };
}

/** The pack class `Base` (AwsSolutionsChecks, ServerlessChecks), recording what each of its rules found in the last synth. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeScript's mixin pattern requires a rest parameter of any[].
function evaluated<T extends abstract new (...args: any[]) => NagPack>(Base: T) {
  abstract class Evaluated extends Base implements EvaluatedNagPack {
    public readonly evaluations: RuleEvaluation[] = [];

    override validate(context: IPolicyValidationContext) {
      this.evaluations.length = 0;
      return super.validate(context);
    }

    protected override applyRule(params: IApplyRule): void {
      super.applyRule(recording(this.readPackName, params, this.evaluations));
    }
  }
  return Evaluated;
}

class EvaluatedAwsSolutionsChecks extends evaluated(AwsSolutionsChecks) {}
class EvaluatedServerlessChecks extends evaluated(ServerlessChecks) {}

/** A rule pack this synth did not run, and why. */
export interface SkippedPack {
  readonly name: string;
  readonly reason: string;
}

export interface ComplianceChecks {
  /** AwsSolutions and Serverless, with what each rule found in the last synth. */
  readonly nagPacks: readonly EvaluatedNagPack[];
  /** Absent where the validator cannot run (`skipped` says why). */
  readonly controlTower?: ControlTowerChecks;
  /** Packs not run on this machine: the audit report says so. */
  readonly skipped: readonly SkippedPack[];
}

export interface ComplianceCheckOptions {
  /** The machine's platform. @default process.platform */
  readonly platform?: NodeJS.Platform;
  /** The machine's CPU architecture. @default process.arch */
  readonly arch?: NodeJS.Architecture;
  /** Where the one-line notice of a skipped pack goes. @default console.warn */
  readonly warn?: (message: string) => void;
}

/**
 * Where @cdklabs/cdk-validator-cfnguard's bundled cfn-guard binary runs: Linux (WSL included)
 * and macOS, on x64 or arm64. Elsewhere its constructor throws, which would stop every `cdk`
 * command; the pack is skipped instead, with a warning, and Control Tower still checks the
 * stack at deploy time in a governed account.
 */
export function controlTowerUnsupportedReason(
  platform: NodeJS.Platform,
  arch: NodeJS.Architecture,
): string | undefined {
  if (platform !== 'linux' && platform !== 'darwin') {
    return `the Control Tower validator (cfn-guard) runs on Linux, macOS and WSL only, not on ${platform}.`;
  }
  if (arch !== 'x64' && arch !== 'arm64') {
    return `the Control Tower validator (cfn-guard) runs on x64 and arm64 only, not on ${arch}.`;
  }
  return undefined;
}

export function addComplianceChecks(app: App, options: ComplianceCheckOptions = {}): ComplianceChecks {
  const nagPacks = [
    // Also copies every acknowledgement into the template's resource Metadata (`cdk_nag`), so
    // an auditor reading a template sees each accepted finding and its reason in place.
    new EvaluatedAwsSolutionsChecks(app, { writeSuppressionsToCloudFormation: true }),
    new EvaluatedServerlessChecks(app),
  ];
  Validations.of(app).addPlugins(...nagPacks);

  const unsupported = controlTowerUnsupportedReason(options.platform ?? process.platform, options.arch ?? process.arch);
  if (unsupported) {
    (options.warn ?? console.warn)(`Skipping the ${controlTowerPluginName} rule pack: ${unsupported}`);
    return { nagPacks, skipped: [{ name: controlTowerPluginName, reason: unsupported }] };
  }

  const controlTower = new ControlTowerChecks();
  Validations.of(app).addPlugins(controlTower);
  for (const stack of app.node.children) {
    if (!(stack instanceof CheatSheetSiteStack)) continue;
    acknowledgeControlTowerExceptions(stack, {
      customDomain: stack.config.customDomain !== undefined,
      accountKnown: !Token.isUnresolved(stack.account),
      leadDigest: stack.eventFunctions.byName.leadDigest !== undefined,
      leadHandoff: stack.leadHandoff !== undefined,
    });
  }
  return { nagPacks, controlTower, skipped: [] };
}

/**
 * Acknowledges each exception that applies to this stack on every resource it names (of the
 * types its control reports on). An exception that names no resource stops the synth.
 */
export function acknowledgeControlTowerExceptions(
  stack: Stack,
  facts: ExceptionFacts,
  exceptions: readonly ControlTowerException[] = controlTowerExceptions,
): void {
  const resources = stack.node.findAll().filter((construct) => CfnResource.isCfnResource(construct));
  for (const exception of exceptions) {
    if (exception.appliesWhen && !exception.appliesWhen(facts)) continue;
    const control = controlTowerControls().find((candidate) => candidate.control === exception.control);
    if (!control) {
      throw new Error(
        `infra/tools/control-tower-exceptions.ts names ${exception.control}, which is no Control Tower control.`,
      );
    }
    const pattern = constructPathPattern(exception.resources);
    const named = resources.filter(
      (resource) =>
        control.resourceTypes.includes(resource.cfnResourceType) && pattern.test(pathInStack(stack, resource)),
    );
    if (named.length === 0) {
      throw new Error(
        `infra/tools/control-tower-exceptions.ts: the exception for ${exception.control} names no ${control.resourceTypes.join(' or ')} at ${exception.resources}; remove it, or correct its path.`,
      );
    }
    for (const resource of named) {
      Validations.of(resource).acknowledge({
        id: `${controlTowerPluginName}::${exception.control}`,
        reason: exception.reason,
      });
    }
  }
}

function pathInStack(stack: Stack, construct: IConstruct): string {
  return construct.node.path.slice(stack.node.path.length + 1);
}

/** `*` matches within one path segment; everything else literally. */
function constructPathPattern(glob: string): RegExp {
  const escaped = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]*')}$`);
}
