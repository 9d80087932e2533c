/**
 * The SES account in the stack's region (SESv2 GetAccount): out of the sandbox, sending not
 * paused, a 24-hour quota above the stack's daily send budget, so the budget, not SES, is
 * what stops a flood, and a sending rate that sends a launch hour's readers within the hour
 * (core/config/launch-capacity.ts; below it the sends wait in the queue past the delivery objective). The sandbox warns and does not fail (docs/deploy.md): a first deploy is
 * possible, and its quota of 200 is the sandbox's, which production access lifts; the fix names it.
 */

import { GetAccountCommand, type GetAccountCommandOutput, type SESv2Client } from '@aws-sdk/client-sesv2';
import { launchHour, sesRateNeeded } from '../../core/config/launch-capacity';
import { describeError } from './aws-errors';
import type { CheckResult } from './check-result';

const leaveSandbox =
  'request production access: SES console > Account dashboard > Request production access, or ' +
  'aws sesv2 put-account-details --production-access-enabled --mail-type TRANSACTIONAL --website-url <site URL> ' +
  '--use-case-description "<how readers ask for the cheat sheet>"';

export async function checkSesAccount(
  ses: SESv2Client,
  { region, dailySendBudget }: { region: string; dailySendBudget: number },
): Promise<CheckResult[]> {
  let account;
  try {
    account = await ses.send(new GetAccountCommand({}));
  } catch (error) {
    return [{ name: 'SES account', status: 'WARN', detail: `could not read it in ${region}: ${describeError(error)}` }];
  }
  const results: CheckResult[] = [];

  results.push(
    account.ProductionAccessEnabled === true
      ? { name: 'SES sandbox', status: 'PASS', detail: `the account is out of the sandbox in ${region}` }
      : {
          name: 'SES sandbox',
          status: 'WARN',
          detail: `the account is in the SES sandbox in ${region}: it delivers only to verified addresses`,
          fix: `${leaveSandbox}.`,
        },
  );

  results.push(
    account.SendingEnabled === false
      ? {
          name: 'SES sending',
          status: 'FAIL',
          detail: `sending is paused for the account in ${region} (enforcement status ${account.EnforcementStatus ?? 'unknown'})`,
          fix: 'if you paused it: aws sesv2 put-account-sending-attributes --sending-enabled; if SES did, answer its case in the SES console.',
        }
      : { name: 'SES sending', status: 'PASS', detail: `sending is enabled in ${region}` },
  );

  const quota = account.SendQuota?.Max24HourSend;
  if (quota === undefined) {
    results.push({ name: 'SES quota', status: 'WARN', detail: `SES reported no 24-hour quota in ${region}` });
  } else if (quota >= 0 && dailySendBudget >= quota && account.ProductionAccessEnabled !== true) {
    results.push({
      name: 'SES quota',
      status: 'WARN',
      detail: `the sandbox's 24-hour quota ${quota} is at or below the daily send budget ${dailySendBudget}; production access lifts it`,
      fix: `${leaveSandbox}.`,
    });
  } else if (quota >= 0 && dailySendBudget >= quota) {
    results.push({
      name: 'SES quota',
      status: 'FAIL',
      detail: `the daily send budget ${dailySendBudget} is at or above SES's 24-hour quota ${quota}: SES, not the budget, would stop sending`,
      fix: `request a higher sending quota in the SES console, or pass -c dailySendBudget=<a number below ${quota}>.`,
    });
  } else {
    results.push({
      name: 'SES quota',
      status: 'PASS',
      detail: `24-hour quota ${quota === -1 ? 'unlimited' : quota}, above the daily send budget ${dailySendBudget}`,
    });
  }
  results.push(checkSendRate(account, region));
  return results;
}

const raiseRate =
  'request a higher sending rate: SES console > Account dashboard > Request a sending quota increase ' +
  '(Service Quotas > Amazon SES > Sending rate)';

/** The account's maximum send rate against what a launch hour needs; the sandbox's 1 a second only warns. */
function checkSendRate(account: GetAccountCommandOutput, region: string): CheckResult {
  const name = 'SES rate';
  const rate = account.SendQuota?.MaxSendRate;
  const needed = sesRateNeeded();
  const launch = `${launchHour.readers.toLocaleString('en-US')} readers in an hour`;
  if (rate === undefined) return { name, status: 'WARN', detail: `SES reported no sending rate in ${region}` };
  if (rate >= needed) {
    return { name, status: 'PASS', detail: `${rate} e-mails a second, at least the ${needed} that ${launch} need` };
  }
  const detail = `SES sends ${rate} e-mail${rate === 1 ? '' : 's'} a second in ${region}; ${launch} need ${needed}: their e-mails would wait past the 15-minute delivery objective`;
  return account.ProductionAccessEnabled === true
    ? { name, status: 'FAIL', detail, fix: `${raiseRate}, asking for at least ${needed} a second.` }
    : { name, status: 'WARN', detail, fix: `${leaveSandbox}.` };
}
