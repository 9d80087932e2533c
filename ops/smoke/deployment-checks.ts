/**
 * With AWS credentials and `--stack NAME`: what the stack's outputs say, and whether SES will
 * actually deliver to readers: the account out of the sandbox, the sender identity verified.
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
      ok: inProduction && sending,
      detail: [
        inProduction
          ? 'out of the sandbox'
          : 'still in the sandbox: it delivers only to verified addresses, 200 a day (docs/deploy.md: leaving the SES sandbox)',
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
      results.push({
        name: 'sender identity',
        ok: verified,
        detail: verified
          ? `${identity} verified for sending`
          : `${identity} not verified (${found.VerificationStatus ?? 'unknown'}${found.DkimAttributes?.Status ? `, DKIM ${found.DkimAttributes.Status}` : ''}): click the link SES mailed, or publish the DKIM records`,
      });
    } catch (error) {
      results.push({ name: 'sender identity', ok: false, detail: `cannot read ${identity}: ${describeError(error)}` });
    }
  }
  return { results, siteUrl: outputs[stackOutputs.siteUrl] };
}
