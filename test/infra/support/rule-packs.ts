/** What the rule-pack tests share: fresh cloud-assembly folders, docs/audit.md's accepted findings, findings by rule. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuditReport } from '../../../infra/tools/audit-report';
import { readDoc, section } from '../../support/docs';

export const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d';
export const everyOption = {
  context: {
    domainName: 'www.example.com',
    certificateArn,
    alarmEmail: 'ops@example.com',
    waf: 'true',
    authorEmail: 'author@example.com',
    leadsReaderRoleArn: 'arn:aws:iam::123456789012:role/leads-reader',
    mailProvider: 'mailchimp',
    mailProviderList: 'a1b2c3d4e5',
  },
  deploymentTarget: { account: '123456789012', region: 'eu-west-1' },
};

/** Control Tower controls the constructs meet on every resource (nothing accepted anywhere). */
export const fixedControls = ['CT.CLOUDWATCH.PR.2', 'CT.CLOUDWATCH.PR.3', 'CT.S3.PR.4', 'CT.S3.PR.11', 'CT.KMS.PR.3'];

let outdirs: string[] = [];
export function freshOutdir(): string {
  const outdir = mkdtempSync(path.join(tmpdir(), 'rule-packs-'));
  outdirs.push(outdir);
  return outdir;
}
/** Removes every folder freshOutdir made: each test file calls it in its afterAll. */
export function removeOutdirs(): void {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
  outdirs = [];
}

export const findingsOf = (report: AuditReport, rule: string) => [
  ...report.open.filter((finding) => finding.rule === rule).flatMap((finding) => finding.resources),
  ...report.accepted.filter((finding) => finding.rule === rule).flatMap((finding) => finding.resources),
];
export const acceptedRules = (report: AuditReport) => new Set(report.accepted.map((finding) => finding.rule));

/** docs/audit.md's Accepted findings: where every accepted finding is explained. */
export function auditSection(): string {
  return section(readDoc('audit.md'), 'Accepted findings');
}
