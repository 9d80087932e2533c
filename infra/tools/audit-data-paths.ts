/**
 * The places personal data goes beyond the product's stores, each read from the templates where
 * they decide it: the failed events' queue (its retention), the export's e-mail and the erase
 * workflow's input (with the leads roles), the lookup role's view (a finding, with its fix), the
 * web ACL's requests (logged or not, with what logging would cost).
 */
import { roleGrants, type RoleProperties } from './audit-iam-section';
import { propertiesOf, resourcesOfType, type StackView } from './cloudformation-template';

const notErased = '`leads erase` cannot reach it';

/** Roles whose own grants allow an action, over every stack. */
function rolesAllowed(views: readonly StackView[], action: RegExp): string[] {
  return views.flatMap((view) =>
    resourcesOfType(view, 'AWS::IAM::Role')
      .filter(([id, role]) =>
        roleGrants(view, id, propertiesOf<RoleProperties>(role)).some(
          (g) => g.effect === 'Allow' && action.test(g.action),
        ),
      )
      .map(([id]) => id),
  );
}

/** The rows of the personal-data table for these paths. */
export function dataPathRows(views: readonly StackView[]): string[][] {
  const rows: string[][] = [];
  for (const view of views) {
    for (const [id, queue] of resourcesOfType(view, 'AWS::SQS::Queue').filter(([queueId]) =>
      queueId.startsWith('FailedEvents'),
    )) {
      const seconds = propertiesOf<{ MessageRetentionPeriod: number }>(queue).MessageRetentionPeriod ?? 4 * 86_400;
      rows.push([
        "a failed run's event: an SES event (the recipient's address, the message's headers), a schedule's or a topic's input",
        `the failed events' queue \`${id}\` (under the leads' key)`,
        `${seconds / 86_400} days (the queue's retention)`,
        `${notErased}: each message expires; read it, then purge the queue (DeadLetters runbook)`,
      ]);
    }
  }
  const readers = rolesAllowed(views, /^ses:SendEmail$/).filter((id) => id.startsWith('LeadsAccessReaderRole'));
  if (readers.length > 0) {
    rows.push([
      'every request (the full CSV: names, addresses, times, status, consent), mailed by `leads export --mail`',
      "the author's mailbox (outside AWS)",
      'until the author deletes it',
      `${notErased}: by hand, in the mailbox`,
    ]);
  }
  if (
    views.some((view) => resourcesOfType(view, 'AWS::IAM::Role').some(([id]) => id.startsWith('LeadsAccessReaderRole')))
  ) {
    rows.push([
      "the reader's address typed into the Leads workflow's form (erase; masked in the job's log)",
      "GitHub: the workflow run's `workflow_dispatch` inputs",
      "as long as the run is kept (the repository's Actions retention, 90 days by default)",
      `${notErased}: delete the workflow run (GitHub → Actions → the run → Delete workflow run) once erase is done`,
    ]);
  }
  rows.push([
    "addresses on SES's suppression list (`ses:ListSuppressedDestinations`), the author's address in the digest function's environment (`lambda:GetFunctionConfiguration`)",
    "what CDK's bootstrap lookup role may read (AWS's ReadOnlyAccess; the deploy jobs' preflight and smoke test, and, through the diff role, a pull request's `cdk diff`)",
    'as long as they are there',
    "finding, not erased by this tool: the lookup role is the bootstrap stack's, not this stack's. Fix: bootstrap with a template whose lookup role also denies `ses:GetSuppressedDestination`, `ses:ListSuppressedDestinations`, `lambda:GetFunction` and `lambda:GetFunctionConfiguration` (`cdk bootstrap --template`)",
  ]);
  const acls = views.flatMap((view) => resourcesOfType(view, 'AWS::WAFv2::WebACL'));
  if (acls.length > 0) {
    const logged = views.some((view) => resourcesOfType(view, 'AWS::WAFv2::LoggingConfiguration').length > 0);
    rows.push([
      'client IP address, headers and path of every request the web ACL inspects',
      logged ? "the web ACL's log destination" : 'nowhere: the web ACL has no logging (a choice)',
      logged ? "the destination's" : '–',
      logged
        ? 'expire with the destination'
        : "nothing kept; its sampled requests (3 hours, in the console) and metrics only. Logging to CloudWatch Logs would cost 0.50 USD per GB ingested (vended logs, us-east-1) and hold every visitor's IP address for the log group's retention",
    ]);
  }
  return rows;
}
