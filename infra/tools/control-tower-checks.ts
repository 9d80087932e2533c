/**
 * AWS Control Tower's proactive controls, as cfn-guard rules, on every synth. Control Tower runs
 * the same controls as CloudFormation hooks in governed accounts and refuses a stack that breaks
 * one; `@cdklabs/cdk-validator-cfnguard` ships them with the cfn-guard binary for Linux and macOS
 * inside the npm package, so the check needs nothing but `npm install`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { IPolicyValidationContext, IPolicyValidationPlugin, PolicyValidationPluginReport } from 'aws-cdk-lib';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';

/** One control: its id in Control Tower, its cfn-guard rule, what it requires, what it checks. */
export interface ControlTowerControl {
  /** Control Tower's identifier, e.g. `CT.LAMBDA.PR.3`. */
  readonly control: string;
  /** The cfn-guard rule implementing it, e.g. `lambda_inside_vpc_check`. */
  readonly rule: string;
  /** What it requires, in Control Tower's words. */
  readonly title: string;
  /** The CloudFormation resource types it reports on. */
  readonly resourceTypes: readonly string[];
  /** Its rule file, within the package. */
  readonly file: string;
}

/** The package's Control Tower rule files (one control per file). */
function controlTowerRulesDirectory(): string {
  // Resolved from the repository root, where `cdk` and jest both run.
  const packageJson = createRequire(path.join(process.cwd(), 'package.json')).resolve(
    '@cdklabs/cdk-validator-cfnguard/package.json',
  );
  return path.join(path.dirname(packageJson), 'rules', 'control-tower', 'cfn-guard');
}

let catalog: readonly ControlTowerControl[] | undefined;

/** Every control the plugin runs, read from the rule files' own headers. */
export function controlTowerControls(): readonly ControlTowerControl[] {
  catalog ??= readdirSync(controlTowerRulesDirectory(), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.guard'))
    .sort()
    .map((file) => {
      const rulePath = path.join(controlTowerRulesDirectory(), file);
      return parseControl(readFileSync(rulePath, 'utf8'), rulePath);
    });
  return catalog;
}

/** The header of a rule file: `# Rule Name:` (or `Identifier`), `# Reports on:` and the `[CT.…]: title` message. */
export function parseControl(text: string, file: string): ControlTowerControl {
  const rule = /^#\s*Rule (?:Name|Identifier):\s*\n#\s*(\S+)/m.exec(text)?.[1];
  const message = /\[(CT\.[A-Z0-9-]+\.PR\.\d+)\]:\s*(.+)/.exec(text);
  const reportsOn = /^#\s*Reports on:\s*\n((?:#\s+AWS::[^\n]*\n)+)/m.exec(text)?.[1];
  if (!rule || !message || !reportsOn) throw new Error(`Cannot read the control in ${file}`);
  return {
    control: message[1],
    rule,
    title: message[2].trim(),
    resourceTypes: [...reportsOn.matchAll(/AWS::[A-Za-z0-9]+::[A-Za-z0-9]+/g)].map((match) => match[0]),
    file,
  };
}

/** The resource types the templates declare. */
function resourceTypesOf(templatePaths: readonly string[]): Set<string> {
  const types = new Set<string>();
  for (const templatePath of templatePaths) {
    const template = JSON.parse(readFileSync(templatePath, 'utf8')) as { Resources?: Record<string, { Type: string }> };
    for (const resource of Object.values(template.Resources ?? {})) types.add(resource.Type);
  }
  return types;
}

/**
 * The controls that can report on these templates: those whose rule reports on a resource type
 * they declare. A rule whose types are absent can only skip, and cfn-guard still parses and runs
 * it: passing the other 180 of the package's 237 rules cost about three quarters of the check's
 * CPU (docs/performance.md).
 */
export function controlsFor(templatePaths: readonly string[]): readonly ControlTowerControl[] {
  const present = resourceTypesOf(templatePaths);
  return controlTowerControls().filter((control) => control.resourceTypes.some((type) => present.has(type)));
}

/** The control a rule implements, e.g. `lambda_inside_vpc_check` → CT.LAMBDA.PR.3. */
export function controlOfRule(rule: string): ControlTowerControl | undefined {
  return controlTowerControls().find((control) => control.rule === rule);
}

/** The name findings are reported and acknowledged under: `ControlTower::CT.LAMBDA.PR.3`. */
export const controlTowerPluginName = 'ControlTower';

/**
 * cdk-validator-cfnguard's plugin, with its findings named by Control Tower's control id (the
 * name an auditor and the Control Tower console use; the report keeps the rule's name beside it)
 * and marked as errors. The plugin leaves a finding's severity unset, and CDK, once any finding of
 * a report is acknowledged, counts the report as passed unless a remaining finding says `error`:
 * without this, one acknowledgement would let every other Control Tower finding through.
 */
export class ControlTowerChecks implements IPolicyValidationPlugin {
  public readonly name = controlTowerPluginName;
  public readonly version: string | undefined = new CfnGuardValidator({ controlTowerRulesEnabled: false }).version;

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const rules = controlsFor(context.templatePaths).map((control) => control.file);
    if (rules.length === 0) return { success: true, violations: [] };
    const guard = new CfnGuardValidator({
      controlTowerRulesEnabled: false,
      rules,
      // cfn-guard's JSON for two templates runs past Node's default 1 MB output buffer once a few
      // dozen findings are listed.
      maxBuffer: 64 * 1024 * 1024,
    });
    const report = guard.validate(context);
    return {
      ...report,
      violations: report.violations.map((violation) => {
        const control = controlOfRule(violation.ruleName);
        return {
          ...violation,
          ruleName: control?.control ?? violation.ruleName,
          severity: 'error',
          ruleMetadata: { ...violation.ruleMetadata, guardRule: violation.ruleName },
        };
      }),
    };
  }
}
