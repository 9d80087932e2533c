/**
 * `npm run sending -- status|pause|resume --stack NAME`: shows, pauses or resumes sending for
 * the product's SES configuration set (the pause function pauses it on its own when the bounce
 * or complaint rate alarm fires; resuming is always the operator's call). Exit code 0 on
 * success, 1 when the stack or SES could not be read or changed, 2 for a usage error.
 */

import { parseArgs } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { configurationSetOfStack } from './configuration-set';
import { readSendingState, setConfigurationSetSending, type SendingState } from './sending-state';

export const usage = 'Usage: npm run sending -- status|pause|resume --stack NAME';

const commands = ['status', 'pause', 'resume'] as const;
type SendingCommand = (typeof commands)[number];

export interface SendingClients {
  readonly ses: SESv2Client;
  readonly cloudFormation: CloudFormationClient;
}

export interface SendingCommandIo {
  /** The state and what changed. */
  readonly stdout: (text: string) => void;
  /** Usage and errors. */
  readonly stderr: (text: string) => void;
  /** @default clients from the SDK's usual settings (credentials, region) */
  readonly clients?: () => SendingClients;
}

const defaultClients = (): SendingClients => ({
  ses: new SESv2Client({}),
  cloudFormation: new CloudFormationClient({}),
});

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const isCommand = (text: string | undefined): text is SendingCommand => commands.some((command) => command === text);

export async function runSendingCommand(args: readonly string[], io: SendingCommandIo): Promise<number> {
  const usageError = (message: string) => {
    io.stderr(message === '' ? usage : `${message}\n${usage}`);
    return 2;
  };
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, options: { stack: { type: 'string' } } });
  } catch (error) {
    return usageError(messageOf(error));
  }
  const [command, ...rest] = parsed.positionals;
  const stack = parsed.values.stack?.trim();
  if (!isCommand(command)) return usageError(command === undefined ? '' : `Unknown command "${command}".`);
  if (rest.length > 0) return usageError(`${command} takes no other argument than --stack NAME.`);
  if (!stack) return usageError('--stack NAME is required: the deployed stack whose sending to show or change.');

  const clients = (io.clients ?? defaultClients)();
  try {
    const configurationSetName = await configurationSetOfStack(clients.cloudFormation, stack);
    if (command !== 'status') {
      await setConfigurationSetSending(clients.ses, configurationSetName, command === 'resume');
    }
    const state = await readSendingState(clients.ses, configurationSetName);
    io.stdout(describe(command, stack, state));
    return 0;
  } catch (error) {
    io.stderr(`Failed: ${messageOf(error)}`);
    return 1;
  } finally {
    clients.ses.destroy();
    clients.cloudFormation.destroy();
  }
}

function describe(command: SendingCommand, stack: string, state: SendingState): string {
  const lines: string[] = [];
  if (command === 'pause') lines.push(`Paused sending for ${stack}.`);
  if (command === 'resume') lines.push(`Resumed sending for ${stack}.`);
  lines.push(
    `Configuration set ${state.configurationSetName}: sending ${state.configurationSetSending ? 'enabled' : 'paused'}.`,
    `Account in this region: sending ${state.accountSending ? 'enabled' : 'paused by SES (see the SES console: Reputation metrics)'}.`,
  );
  if (!state.configurationSetSending) lines.push(`Resume with: npm run sending -- resume --stack ${stack}`);
  return lines.join('\n');
}
