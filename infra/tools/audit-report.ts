/**
 * `cdk.out/audit-report.md`, written after every synth from what the synth produced: the
 * templates, their construct paths (the stacks' metadata) and the rule packs' validation report.
 * Nothing in it is typed by hand, so it cannot drift from what `cdk deploy` would submit.
 *
 * It also finds stale acknowledgements: an acknowledgement of AwsSolutions, Serverless or Control
 * Tower that matched no finding in this synth. The app entry fails the synth on one, and so do the
 * tests: an accepted finding's reason never outlives the finding.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { dataSection } from './audit-data-section';
import { iamSection } from './audit-iam-section';
import { auditStamp, personalDataSection, stampSection } from './audit-personal-data';
import { decryptersSection, deployRoleSection, readersSection, sendersSection } from './audit-access';
import {
  controlTowerSection,
  nagPackSection,
  readValidationReport,
  skippedControlTowerSection,
  type AcceptedFinding,
  type ValidationReportFile,
} from './audit-rule-packs';
import { stackView } from './cloudformation-template';
import type { EvaluatedNagPack, SkippedPack } from './compliance-checks';
import { controlTowerPluginName } from './control-tower-checks';
import { table } from './markdown-table';

export type { AcceptedFinding } from './audit-rule-packs';
export { renderValue } from './cloudformation-template';

export const auditReportFileName = 'audit-report.md';

/** The rule packs whose acknowledgements are checked for staleness (CDK's own warnings are not). */
export const rulePackNames = ['AwsSolutions', 'Serverless', controlTowerPluginName] as const;

export interface AuditInput {
  /** What `app.synth()` returned. */
  readonly assembly: CloudAssembly;
  /** The nag packs as registered (infra/tools/compliance-checks.ts): what each rule found, to say what passed. */
  readonly nagPacks?: readonly EvaluatedNagPack[];
  /** Packs that did not run on this machine (ComplianceChecks.skipped). @default none */
  readonly skippedPacks?: readonly SkippedPack[];
  /** The stage synthesized (`-c stage=NAME`), for the stamp. @default none */
  readonly stage?: string;
}

/** An acknowledgement in the construct tree that matched no finding. */
export interface StaleAcknowledgement {
  readonly id: string;
  readonly path: string;
  readonly reason: string;
}

export interface AuditReport {
  readonly markdown: string;
  readonly accepted: readonly AcceptedFinding[];
  /** Findings nobody accepted (the synth fails on them before a report is written, but a test may ask). */
  readonly open: ReadonlyArray<{ readonly pack: string; readonly rule: string; readonly resources: readonly string[] }>;
  readonly stale: readonly StaleAcknowledgement[];
  /** The product's own synth warnings about the chosen context (e.g. no senderDomain): shown, not findings. */
  readonly advice: ReadonlyArray<{ readonly rule: string; readonly resources: readonly string[] }>;
}

type OpenFinding = AuditReport['open'][number];
type Advice = AuditReport['advice'][number];

/**
 * Warnings the product itself adds (ids `first100days:…`, e.g. infra/constructs/mail.ts) advise on
 * the chosen context rather than flag a control: `cdk synth` still prints them, and the report
 * lists them apart, so they neither count as open findings nor need an acknowledgement.
 */
const productAdvicePrefix = 'Annotation::first100days:';

function findings(validation: ValidationReportFile): {
  accepted: AcceptedFinding[];
  open: OpenFinding[];
  advice: Advice[];
} {
  const accepted: AcceptedFinding[] = [];
  const open: OpenFinding[] = [];
  const advice: Advice[] = [];
  for (const report of validation.pluginReports) {
    for (const violation of report.violations) {
      if (violation.ruleName.startsWith(productAdvicePrefix)) {
        const rule = violation.ruleName.slice('Annotation::'.length);
        advice.push({ rule, resources: violation.violatingConstructs.map((c) => c.constructPath) });
        continue;
      }
      open.push({
        pack: report.pluginName,
        rule: violation.ruleName,
        resources: violation.violatingConstructs.map((c) => c.constructPath),
      });
    }
    for (const suppressed of report.suppressedViolations ?? []) {
      accepted.push({
        pack: report.pluginName,
        rule: suppressed.ruleName,
        resources: suppressed.violatingConstructs.map((c) => c.constructPath),
        reason: suppressed.reason ?? '',
        acknowledgedAt: (suppressed.acknowledgedAt ?? '').replace(/^\//, ''),
      });
    }
  }
  return { accepted, open, advice };
}

/** Every acknowledgement of a rule pack in the construct tree must have matched a finding. */
function staleAcknowledgements(assembly: CloudAssembly, validation: ValidationReportFile): StaleAcknowledgement[] {
  const stale: StaleAcknowledgement[] = [];
  const seen = new Set<string>();
  for (const artifact of assembly.stacks) {
    for (const entry of artifact.findMetadataByType('aws:cdk:acknowledged-rules')) {
      for (const [id, reason] of Object.entries(entry.data as unknown as Record<string, string>)) {
        const where = entry.path.replace(/^\//, '');
        const key = `${id}@${where}`;
        if (seen.has(key) || !rulePackNames.some((pack) => id.startsWith(`${pack}::`))) continue;
        seen.add(key);
        const matched = validation.pluginReports.some((report) =>
          (report.suppressedViolations ?? []).some(
            (suppressed) =>
              suppressed.acknowledgedId === id && (suppressed.acknowledgedAt ?? '').replace(/^\//, '') === where,
          ),
        );
        if (!matched) stale.push({ id, path: where, reason });
      }
    }
  }
  return stale;
}

export function buildAuditReport({ assembly, nagPacks = [], skippedPacks = [], stage }: AuditInput): AuditReport {
  const views = assembly.stacks.map(stackView);
  const validation = readValidationReport(assembly.directory);
  const { accepted, open, advice } = findings(validation);
  const stale = staleAcknowledgements(assembly, validation);

  const packVersion = (name: string) =>
    validation.pluginReports.find((report) => report.pluginName === name)?.pluginVersion;
  const acceptedOf = (pack: string) => accepted.filter((finding) => finding.pack === pack);
  const nagSection = (name: string) =>
    nagPackSection(
      nagPacks.find((pack) => pack.name === name),
      name,
      acceptedOf(name),
      packVersion(name),
    );
  const controlTowerSkipped = skippedPacks.find((pack) => pack.name === controlTowerPluginName);
  const markdown = [
    '# Audit report',
    '',
    `Written by every synth from the templates in this folder (\`infra/tools/audit-report.ts\`): do not edit. Stacks: ${views
      .map((view) => `\`${view.name}\` (${view.environment})`)
      .join(', ')}.`,
    '',
    stampSection(auditStamp(stage)),
    personalDataSection(views),
    readersSection(views),
    decryptersSection(views),
    sendersSection(views),
    deployRoleSection(views),
    dataSection(views),
    iamSection(views),
    '## Rule packs',
    '',
    'Each pack runs on every synth (`infra/tools/compliance-checks.ts`); a finding nobody accepted fails it. Accepted findings keep their reason here, in `validation-report.json` and, for the nag packs, in the template (`Metadata.cdk_nag`).',
    '',
    nagSection('AwsSolutions'),
    nagSection('Serverless'),
    controlTowerSkipped
      ? skippedControlTowerSection(controlTowerSkipped.reason)
      : controlTowerSection(views, acceptedOf(controlTowerPluginName), packVersion(controlTowerPluginName)),
    '## Open findings and stale acknowledgements',
    '',
    table(
      ['kind', 'rule', 'where'],
      [
        ...open.map((finding) => ['open finding', `${finding.pack}: ${finding.rule}`, finding.resources.join(', ')]),
        ...stale.map((entry) => ['stale acknowledgement (no finding)', entry.id, entry.path]),
      ],
    ),
    '## Advice on the chosen context',
    '',
    table(
      ['warning', 'where'],
      advice.map((entry) => [entry.rule, entry.resources.join(', ')]),
    ),
  ].join('\n');

  return { markdown, accepted, open, stale, advice };
}

/** Builds the report and writes it beside the templates. */
export function writeAuditReport(input: AuditInput): AuditReport {
  const report = buildAuditReport(input);
  writeFileSync(path.join(input.assembly.directory, auditReportFileName), report.markdown);
  return report;
}
