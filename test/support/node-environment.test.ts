/**
 * The node project's environment (node-environment.cjs): the emulators' packages come from Node's
 * own require, loaded once per jest worker, and each SES emulator still starts with no mail.
 */
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import dynalite from 'dynalite';
import { startSesEmulator, type RunningServer } from '../../local/emulators';
import { capturedEmails } from './captured-emails';

declare const __emulatorRequire: NodeJS.Require;

const started: RunningServer[] = [];
afterAll(() => Promise.all(started.splice(0).map((server) => server.close())));

async function sesEmulator(): Promise<RunningServer> {
  started.push(await startSesEmulator(0));
  return started.at(-1)!;
}

test("imports the emulators' packages as Node loaded them, not a copy of this file's own", () => {
  expect(dynalite).toBe(__emulatorRequire('dynalite'));
});

test('an SES emulator started after another begins with no captured mail', async () => {
  const first = await sesEmulator();
  const ses = new SESv2Client({
    endpoint: first.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  await ses.send(
    new SendEmailCommand({
      FromEmailAddress: 'cheatsheet@example.com',
      Destination: { ToAddresses: ['ada@example.com'] },
      Content: { Simple: { Subject: { Data: 'Hello' }, Body: { Text: { Data: 'Hello' } } } },
    }),
  );
  expect(await capturedEmails(`${first.url}/`, 'ada@example.com')).toHaveLength(1);

  const second = await sesEmulator();
  expect(await capturedEmails(`${second.url}/`)).toEqual([]);
});
