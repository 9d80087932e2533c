import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { EvaluatedNagPack, RuleEvaluation } from './compliance-checks';
import { controlTowerControls } from './control-tower-checks';
import type { StackView } from './cloudformation-template';
import { table } from './markdown-table';

/** A finding a rule pack reported and someone accepted, with the reason. */
export interface AcceptedFinding {
  readonly pack: string;
  readonly rule: string;
  /** Construct paths of the resources, without the leading `/`. */
  readonly resources: readonly string[];
  readonly reason: string;
  readonly acknowledgedAt: string;
}

/** `cdk.out/validation-report.json`, as far as the report reads it. */
export interface ValidationReportFile {
  readonly pluginReports: ReadonlyArray<{
    readonly pluginName: string;
    readonly pluginVersion?: string;
    readonly violations: ReadonlyArray<{
      readonly ruleName: string;
      readonly violatingConstructs: ReadonlyArray<{ readonly constructPath: string }>;
    }>;
    readonly suppressedViolations?: ReadonlyArray<{
      readonly ruleName: string;
      readonly reason?: string;
      readonly acknowledgedId: string;
      readonly acknowledgedAt?: string;
      readonly violatingConstructs: ReadonlyArray<{ readonly constructPath: string }>;
    }>;
  }>;
}

export function readValidationReport(directory: string): ValidationReportFile {
  const file = path.join(directory, 'validation-report.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ValidationReportFile) : { pluginReports: [] };
}

const baseRule = (rule: string) => rule.replace(/\[.*\]$/, '');

/** One row per finding and reason, with every resource it was accepted on. */
function acceptedTable(accepted: readonly AcceptedFinding[]): string {
  const rows = new Map<string, { rule: string; reason: string; resources: string[] }>();
  for (const finding of accepted) {
    const key = `${finding.rule}\n${finding.reason}`;
    const row = rows.get(key) ?? { rule: finding.rule, reason: finding.reason, resources: [] };
    row.resources.push(...finding.resources);
    rows.set(key, row);
  }
  return table(
    ['finding', 'resources', 'reason'],
    [...rows.values()]
      .sort((a, b) => a.rule.localeCompare(b.rule, 'en', { numeric: true }))
      .map((row) => [`\`${row.rule}\``, row.resources.map((resource) => `\`${resource}\``).join(', '), row.reason]),
  );
}

export function nagPackSection(
  pack: EvaluatedNagPack | undefined,
  name: string,
  accepted: readonly AcceptedFinding[],
  version?: string,
): string {
  const evaluations: readonly RuleEvaluation[] = pack?.evaluations ?? [];
  const byRule = new Map<string, RuleEvaluation[]>();
  for (const evaluation of evaluations)
    byRule.set(evaluation.rule, [...(byRule.get(evaluation.rule) ?? []), evaluation]);
  const acceptedByRule = (rule: string) =>
    new Set(accepted.filter((finding) => baseRule(finding.rule) === rule).flatMap((f) => f.resources));
  const rows = [...byRule.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rule, list]) => {
      const resources = new Set(list.map((evaluation) => evaluation.path));
      const failing = new Set(list.filter((evaluation) => !evaluation.compliant).map((evaluation) => evaluation.path));
      return [
        `\`${rule}\``,
        String(resources.size),
        String(resources.size - failing.size),
        String(acceptedByRule(rule).size),
      ];
    });
  const passedEverywhere = rows.filter((row) => row[3] === '0').length;
  return [
    `### ${name}${version ? ` (cdk-nag ${version})` : ''}`,
    '',
    evaluations.length > 0
      ? `${byRule.size} rules looked at the resources below; ${passedEverywhere} passed on every resource they apply to, and the others' findings are all accepted (below).`
      : 'What each rule found per resource was not recorded in this synth.',
    '',
    table(['rule', 'resources checked', 'passed', 'accepted findings'], rows),
    'Accepted findings:',
    '',
    acceptedTable(accepted),
  ].join('\n');
}

const controlTowerHeading = 'Control Tower proactive controls';

export function controlTowerSection(
  views: readonly StackView[],
  accepted: readonly AcceptedFinding[],
  version?: string,
): string {
  const present = new Map<string, number>();
  for (const view of views)
    for (const resource of Object.values(view.resources))
      present.set(resource.Type, (present.get(resource.Type) ?? 0) + 1);
  const rows = controlTowerControls()
    .filter((control) => control.resourceTypes.some((type) => present.has(type)))
    .sort((a, b) => a.control.localeCompare(b.control, 'en', { numeric: true }))
    .map((control) => {
      const checked = control.resourceTypes.reduce((sum, type) => sum + (present.get(type) ?? 0), 0);
      const acceptedOn = new Set(
        accepted.filter((finding) => finding.rule === control.control).flatMap((f) => f.resources),
      ).size;
      return [
        `\`${control.control}\``,
        `\`${control.rule}\``,
        control.title,
        String(checked),
        String(checked - acceptedOn),
        String(acceptedOn),
      ];
    });
  return [
    `### ${controlTowerHeading}${version ? ` (@cdklabs/cdk-validator-cfnguard ${version})` : ''}`,
    '',
    `Of the package's ${controlTowerControls().length} controls, the ${rows.length} that report on a resource type these templates contain run on every synth (the others have nothing here to report on). Every resource passes unless its finding is accepted below (infra/tools/control-tower-exceptions.ts).`,
    '',
    table(['control', 'cfn-guard rule', 'requires', 'resources checked', 'passed', 'accepted'], rows),
    'Accepted findings:',
    '',
    acceptedTable(accepted),
  ].join('\n');
}

/** The Control Tower section when the pack did not run on this machine. */
export function skippedControlTowerSection(reason: string): string {
  return [`### ${controlTowerHeading}`, '', `Skipped in this synth: ${reason}`, ''].join('\n');
}
