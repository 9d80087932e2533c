/**
 * The sender's SES identity (senderDomain, else senderEmail): absent is fine (the stack creates
 * it); present before the stack exists stops the create on "already exists" unless the context
 * says to use it (`senderIdentityExists=true`); present and not verified delivers nothing.
 */

import { GetEmailIdentityCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { describeError, isNotFound } from './aws-errors';
import type { CheckResult } from './check-result';
import { isFirstDeploy, type StackState } from './stack-check';

export interface SenderIdentityInput {
  readonly identity: string;
  readonly region: string;
  readonly senderIdentityExists: boolean;
  readonly stack: StackState;
}

export async function checkSenderIdentity(
  ses: SESv2Client,
  { identity, region, senderIdentityExists, stack }: SenderIdentityInput,
): Promise<CheckResult> {
  const name = 'sender identity';
  let verified: boolean;
  let status: string;
  try {
    const found = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
    verified = found.VerifiedForSendingStatus === true;
    status = found.VerificationStatus ?? (verified ? 'SUCCESS' : 'unknown');
  } catch (error) {
    if (!isNotFound(error)) {
      return { name, status: 'WARN', detail: `could not read ${identity} in ${region}: ${describeError(error)}` };
    }
    return senderIdentityExists
      ? {
          name,
          status: 'FAIL',
          detail: `senderIdentityExists=true, but ${identity} is not an SES identity in ${region}`,
          fix: `create and verify ${identity} in SES in ${region}, or leave senderIdentityExists out so the stack creates it.`,
        }
      : { name, status: 'PASS', detail: `${identity} is not an SES identity in ${region} yet: the stack creates it` };
  }

  if (isFirstDeploy(stack) && !senderIdentityExists) {
    return {
      name,
      status: 'FAIL',
      detail: `${identity} already exists as an SES identity in ${region} (${verified ? 'verified' : status}), and creating the stack would create it again: the deploy stops on "already exists"`,
      fix: 'pass -c senderIdentityExists=true so the stack uses the existing identity.',
    };
  }
  if (!verified) {
    return {
      name,
      status: 'WARN',
      detail: `${identity} exists in ${region} but is not verified (${status}): SES sends nothing from it`,
      fix: identity.includes('@')
        ? 'click the link SES e-mailed to the address.'
        : 'publish the DKIM CNAME records SES shows for the domain.',
    };
  }
  return { name, status: 'PASS', detail: `${identity} exists in ${region} and is verified for sending` };
}
