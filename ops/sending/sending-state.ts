/**
 * Whether SES sends through the product's configuration set (the pause function turns it off
 * when a reputation alarm fires), and whether the account itself may send in this region (SES
 * pauses an account whose bounce or complaint rate it reviews). Either one off, and the send
 * route answers 503.
 */

import {
  GetAccountCommand,
  GetConfigurationSetCommand,
  PutConfigurationSetSendingOptionsCommand,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';

export interface SendingState {
  readonly configurationSetName: string;
  /** SendingOptions.SendingEnabled of the configuration set (absent means enabled, SES's default). */
  readonly configurationSetSending: boolean;
  /** The account's SendingEnabled in this region. */
  readonly accountSending: boolean;
}

export async function readSendingState(ses: SESv2Client, configurationSetName: string): Promise<SendingState> {
  const [configurationSet, account] = await Promise.all([
    ses.send(new GetConfigurationSetCommand({ ConfigurationSetName: configurationSetName })),
    ses.send(new GetAccountCommand({})),
  ]);
  return {
    configurationSetName,
    configurationSetSending: configurationSet.SendingOptions?.SendingEnabled !== false,
    accountSending: account.SendingEnabled !== false,
  };
}

export async function setConfigurationSetSending(
  ses: SESv2Client,
  configurationSetName: string,
  enabled: boolean,
): Promise<void> {
  await ses.send(
    new PutConfigurationSetSendingOptionsCommand({
      ConfigurationSetName: configurationSetName,
      SendingEnabled: enabled,
    }),
  );
}
