/**
 * With AWS credentials and `--stack NAME`: what the stack's outputs say, and whether SES will
 * actually deliver to readers: the account sending (the sandbox is a warning naming its fix), the
 * sender identity verified.
 * Read-only calls: CloudFormation DescribeStacks, SESv2 GetAccount and GetEmailIdentity.
 */

import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { CheckResult } from './site-checks';

export interface DeploymentClients {
  readonly cloudFormation: CloudFormationClient;
  readonly ses: SESv2Client;
}

export interface DeploymentReport {
  readonly results: CheckResult[];
  /** The stack's SiteUrl output, when it has one. */
  readonly siteUrl?: string;
}

/** The stack's outputs this tool reads (infra/stack.ts). */
export const stackOutputs = { siteUrl: 'SiteUrl', senderIdentity: 'SenderIdentityName' } as const;

/** What lifts the sandbox: a request to AWS, once per account and region (docs/deploy.md). */
export const requestProductionAccess =
  'request production access (SES console > Account dashboard > Request production access; docs/deploy.md, leaving the SES sandbox)';

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export async function runDeploymentChecks(stackName: string, clients: DeploymentClients): Promise<DeploymentReport> {
  let outputs: Record<string, string>;
  try {
    const { Stacks = [] } = await clients.cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    const stack = Stacks[0];
    if (!stack) throw new Error('no such stack');
    outputs = {};
    for (const { OutputKey, OutputValue } of stack.Outputs ?? []) {
      if (OutputKey !== undefined && OutputValue !== undefined) outputs[OutputKey] = OutputValue;
    }
  } catch (error) {
    return { results: [{ name: `stack ${stackName}`, ok: false, detail: `cannot read it: ${describeError(error)}` }] };
  }
  const results: CheckResult[] = [
    { name: `stack ${stackName}`, ok: true, detail: `outputs read (${Object.keys(outputs).length})` },
  ];

  try {
    const account = await clients.ses.send(new GetAccountCommand({}));
    const inProduction = account.ProductionAccessEnabled === true;
    const sending = account.SendingEnabled !== false;
    results.push({
      name: 'SES account',
      // The sandbox warns, as in the preflight and docs/deploy.md: the deploy works, and the fix is
      // a request to AWS, not a change to the product; a paused account fails.
      ok: sending,
      ...(!inProduction && { warning: true }),
      detail: [
        inProduction
          ? 'out of the sandbox'
          : `still in the sandbox: it delivers only to verified addresses, 200 a day. Fix: ${requestProductionAccess}`,
        sending ? 'sending enabled' : `sending PAUSED (${account.EnforcementStatus ?? 'unknown status'})`,
        account.SendQuota
          ? `quota ${account.SendQuota.Max24HourSend} a day, ${account.SendQuota.SentLast24Hours} sent in 24 h`
          : '',
      ]
        .filter(Boolean)
        .join(', '),
    });
  } catch (error) {
    results.push({ name: 'SES account', ok: false, detail: `cannot read it: ${describeError(error)}` });
  }

  const identity = outputs[stackOutputs.senderIdentity];
  if (!identity) {
    results.push({
      name: 'sender identity',
      ok: false,
      detail: `the stack has no ${stackOutputs.senderIdentity} output`,
    });
  } else {
    try {
      const found = await clients.ses.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
      const verified = found.VerifiedForSendingStatus === true;
      // A new stage's first run: SES waits for the DNS records (or the link) the deploy just asked
      // for. The deploy worked, so the pipeline stays green and says what to add; a FAILED
      // verification (records removed or wrong for 72 hours) still fails.
      const pending = !verified && found.VerificationStatus === 'PENDING';
      const domain = identity.split('@').pop()!;
      const records = (found.DkimAttributes?.Tokens ?? []).map(
        (token) => `CNAME ${token}._domainkey.${domain} -> ${token}.dkim.amazonses.com`,
      );
      results.push({
        name: 'sender identity',
        ok: verified || pending,
        ...(pending && { warning: true }),
        ...(!verified && records.length > 0 && { fixLines: records }),
        detail: verified
          ? `${identity} verified for sending`
          : `${identity} not verified (${found.VerificationStatus ?? 'unknown'}${found.DkimAttributes?.Status ? `, DKIM ${found.DkimAttributes.Status}` : ''}): ${
              records.length > 0
                ? `add these DNS records at ${domain}'s DNS host: ${records.join('; ')}`
                : 'click the link SES mailed'
            }`,
      });
    } catch (error) {
      results.push({ name: 'sender identity', ok: false, detail: `cannot read ${identity}: ${describeError(error)}` });
    }
  }
  return { results, siteUrl: outputs[stackOutputs.siteUrl] };
}
