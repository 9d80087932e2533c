/**
 * The weekly digest on `npm start`'s twin, on demand (`npm run digest`). The twin runs no schedule,
 * so this runs the digest's own handler (lambdas/lead-digest/) in this process, against the twin's
 * DynamoDB and its mail view, as if it were tomorrow's 07:00 UTC run: "this week" then ends today,
 * so what was just done on the twin (visits, requests) is in the funnel, and the e-mail lands in the
 * twin's Mail page as the author would get it.
 */

import { parseArgs } from 'node:util';
import { parseEmailAddress } from '../core/api/request-schema';
import { leadDigestVariables } from '../core/config/function-environment';
import { limitCountersTable, requestsTable } from '../core/data/tables';
import { emulatorHost } from './emulators';
import type { LocalStackPorts } from './ports';

/** Where the twin's digest goes unless told otherwise: the mail view shows every address. */
export const twinAuthorEmail = 'author@example.com';

/** The twin's sender, as the local stack's send function uses it (local-stack.ts). */
const twinSenderEmail = 'cheatsheet@example.com';

/** The next 07:00 UTC after `now`'s day: the digest's hour, the day after, so the funnel's last day is today. */
export function twinDigestTime(now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today + 86_400_000 + 7 * 3_600_000);
}

export interface TwinDigestOptions {
  /** The twin's ports: its DynamoDB and its mail view (`readPorts()`: npm start's). */
  readonly ports: Pick<LocalStackPorts, 'dynamodb' | 'mail'>;
  /** @default twinAuthorEmail */
  readonly authorEmail?: string;
  /** @default the clock */
  readonly now?: Date;
}

export interface TwinDigest {
  /** The digest's time, ISO. */
  readonly time: string;
  readonly authorEmail: string;
  /** The twin's mail view, where the e-mail is. */
  readonly mailUrl: string;
}

/** The variables the handler reads, set for its run and put back after it. */
function digestEnvironment(options: TwinDigestOptions, authorEmail: string): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_DYNAMODB: `http://${emulatorHost}:${options.ports.dynamodb}`,
    // aws-ses-v2-local takes SESv2's SendEmail on the mail view's own port.
    AWS_ENDPOINT_URL_SESV2: `http://${emulatorHost}:${options.ports.mail}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    [leadDigestVariables.tableName]: requestsTable.name,
    [leadDigestVariables.limitCountersTableName]: limitCountersTable.name,
    [leadDigestVariables.senderEmail]: twinSenderEmail,
    [leadDigestVariables.authorEmail]: authorEmail,
  };
}

/** Runs the digest once against the twin; rejects as the handler does (the twin not running: a refused connection). */
export async function runTwinDigest(options: TwinDigestOptions): Promise<TwinDigest> {
  const authorEmail = options.authorEmail ?? twinAuthorEmail;
  const environment = digestEnvironment(options, authorEmail);
  const saved = Object.fromEntries(Object.keys(environment).map((name) => [name, process.env[name]]));
  const savedConfigurationSet = process.env[leadDigestVariables.configurationSetName];
  const time = twinDigestTime(options.now ?? new Date()).toISOString();
  Object.assign(process.env, environment);
  // The emulator has no configuration sets.
  delete process.env[leadDigestVariables.configurationSetName];
  try {
    // Imported after the variables: its SDK clients read their endpoints when created.
    const { handler } = await import('../lambdas/lead-digest/handler');
    await handler({ time });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (savedConfigurationSet !== undefined)
      process.env[leadDigestVariables.configurationSetName] = savedConfigurationSet;
  }
  return { time, authorEmail, mailUrl: `http://localhost:${options.ports.mail}/` };
}

export interface TwinDigestCommandIo {
  readonly print: (line: string) => void;
  readonly printError: (line: string) => void;
  readonly ports: Pick<LocalStackPorts, 'dynamodb' | 'mail'>;
  readonly now?: Date;
}

const usage = 'Usage: npm run digest [-- --to ADDRESS]   (the weekly digest of npm start, as of tomorrow 07:00 UTC)';

/** `npm run digest [-- --to ADDRESS]`: 0 once the e-mail is in the mail view, 1 when the digest failed, 2 on bad arguments. */
export async function runTwinDigestCommand(args: readonly string[], io: TwinDigestCommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { to: { type: 'string' } }, strict: true, allowPositionals: false });
  } catch (error) {
    io.printError(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  const to = parsed.values.to;
  if (to !== undefined) {
    const address = parseEmailAddress(to);
    if (!address.success) {
      io.printError(`"${to}" is not an e-mail address: ${address.error}\n${usage}`);
      return 2;
    }
  }
  try {
    const sent = await runTwinDigest({
      ports: io.ports,
      ...(to !== undefined && { authorEmail: to }),
      ...(io.now && { now: io.now }),
    });
    io.print(`Weekly digest as of ${sent.time} sent to ${sent.authorEmail}: open ${sent.mailUrl}`);
    return 0;
  } catch (error) {
    io.printError(
      `The digest failed: ${(error as Error).message}. Is npm start running (DynamoDB on port ${io.ports.dynamodb}, mail on ${io.ports.mail})?`,
    );
    return 1;
  }
}
