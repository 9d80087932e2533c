/** Starting and stopping the local stack: clean stops, taken ports, a missing PDF. */

import { access } from 'node:fs/promises';
import { LocalStackPortInUseError, startLocalStack } from '../../local/local-stack';
import type { LocalStackPorts } from '../../local/ports';
import {
  isListening,
  occupyPort,
  serversInThisProcess,
  serversInThisProcessSettlingAt,
  settledServersInThisProcess,
} from './support/ports';

beforeAll(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true'; // the functions' metrics are tested in test/lambdas
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('the local stack starting and stopping', () => {
  // Whether a freed port is still taken is not asked of the port itself: another jest worker may
  // take it the moment it is free. This process's own count of listening servers is asked instead.
  test('stop() closes every port and removes the S3 directory', async () => {
    const before = await settledServersInThisProcess();
    const stack = await startLocalStack({ siteDir: null, cheatSheetPdf: null, onWarning: () => {} });
    expect(await exists(stack.s3Directory)).toBe(true);
    for (const port of Object.values(stack.ports)) expect(await isListening(port)).toBe(true);
    // DynamoDB, S3, SES and the API's server; SES's front (the rate, the faults) and the send queue.
    expect(serversInThisProcess()).toBe(before + 6);

    await stack.stop();

    expect(await serversInThisProcessSettlingAt(before)).toBe(before);
    expect(await exists(stack.s3Directory)).toBe(false);
    await expect(stack.stop()).resolves.toBeUndefined();
  });

  test.each([
    ['site', 'PORT'],
    ['mail', 'MAIL_PORT'],
    ['dynamodb', 'DYNAMODB_PORT'],
    ['s3', 'S3_PORT'],
  ] as const)('a taken %s port fails with a message naming %s, leaving nothing running', async (service, variable) => {
    const taken = await occupyPort();
    const before = await settledServersInThisProcess();
    // The others on free ports of their own choosing: the services started before the taken one
    // must be closed again, whichever ports they got.
    const ports: LocalStackPorts = { site: 0, mail: 0, dynamodb: 0, s3: 0, [service]: taken.port };
    try {
      const start = startLocalStack({ ports, siteDir: null, cheatSheetPdf: null, onWarning: () => {} });

      await expect(start).rejects.toBeInstanceOf(LocalStackPortInUseError);
      await expect(start).rejects.toThrow(
        new RegExp(
          `^Port ${taken.port} is already in use, so the .+ cannot start\\. Set ${variable} to a free port, or to 0`,
        ),
      );
      expect(await serversInThisProcessSettlingAt(before)).toBe(before);
    } finally {
      await taken.release();
    }
  });

  test('warns, and still starts, when there is no PDF to upload', async () => {
    const warnings: string[] = [];

    const stack = await startLocalStack({
      siteDir: null,
      cheatSheetPdf: '/nonexistent/cheat-sheet.pdf',
      onWarning: (message) => warnings.push(message),
    });
    await stack.stop();

    expect(warnings).toEqual([
      expect.stringContaining('No cheat-sheet PDF at /nonexistent/cheat-sheet.pdf: run npm run build:pdf'),
    ]);
  });
});
