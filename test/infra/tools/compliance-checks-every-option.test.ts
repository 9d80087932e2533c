/** The rule packs with every option on: one synth of the product for this file. */
import type { AuditReport } from '../../../infra/tools/audit-report';
import { synthWithRulePacks } from '../support/synth';
import {
  acceptedRules,
  auditSection,
  everyOption,
  findingsOf,
  fixedControls,
  freshOutdir,
  removeOutdirs,
} from '../support/rule-packs';

afterAll(removeOutdirs);

describe('the rule packs, with every option on (custom domain, alarmEmail, waf outside us-east-1, the digest, a leads reader, a mail provider)', () => {
  let report: AuditReport;
  beforeAll(() => {
    report = synthWithRulePacks({ outdir: freshOutdir(), ...everyOption });
  });

  test('check both stacks and leave no finding open and no acknowledgement stale', () => {
    expect(report.markdown).toContain('`First100DaysSiteWebFirewall`');
    expect(report.open).toEqual([]);
    expect(report.stale).toEqual([]);
  });

  test.each([...fixedControls, 'CT.LAMBDA.PR.2', 'CT.CLOUDFRONT.PR.6', 'CT.CLOUDFRONT.PR.7', 'CT.CLOUDFRONT.PR.9'])(
    'find nothing to accept for %s: the invoke permissions name a literal account, the distribution a custom certificate',
    (control) => {
      expect(findingsOf(report, control)).toEqual([]);
    },
  );

  test('accept no missing WAF, no default certificate, and the alarm e-mail without a dead-letter queue', () => {
    expect(acceptedRules(report)).not.toContain('AwsSolutions-CFR2');
    expect(acceptedRules(report)).not.toContain('AwsSolutions-CFR4');
    expect(acceptedRules(report)).toContain('Serverless-SNSRedrivePolicy');
  });

  test('explain in docs/audit.md every finding accepted only with these options', () => {
    const audit = auditSection();
    for (const finding of report.accepted) {
      // With an account, CDK's asset bucket is named literally; docs/audit.md names it by its pseudo parameters.
      const rule = finding.rule.replace(
        'aws:s3:::cdk-hnb659fds-assets-123456789012-eu-west-1',
        '<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>',
      );
      expect(audit).toContain(`\`${rule}\``);
    }
  });
});
