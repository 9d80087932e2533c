/** Starting and stopping the local stack: clean stops, taken ports, a missing PDF. */

import { access } from 'node:fs/promises';
import { LocalStackPortInUseError, startLocalStack } from '../../local/local-stack';
import type { LocalStackPorts, Service } from '../../local/ports';
import { freePort, isListening, occupyPort } from './support/ports';

beforeAll(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
});

const exists = (path: string) => access(path).then(() => true, () => false);

describe('the local stack starting and stopping', () => {
  test('stop() closes every port and removes the S3 directory', async () => {
    const stack = await startLocalStack({ siteDir: null, cheatSheetPdf: null, onWarning: () => {} });
    expect(await exists(stack.s3Directory)).toBe(true);
    for (const port of Object.values(stack.ports)) expect(await isListening(port)).toBe(true);

    await stack.stop();

    for (const port of Object.values(stack.ports)) expect(await isListening(port)).toBe(false);
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
    const ports: Record<Service, number> = { site: 0, mail: 0, dynamodb: 0, s3: 0 };
    for (const other of Object.keys(ports) as Service[]) ports[other] = other === service ? taken.port : await freePort();
    try {
      const start = startLocalStack({ ports: ports as LocalStackPorts, siteDir: null, cheatSheetPdf: null, onWarning: () => {} });

      await expect(start).rejects.toBeInstanceOf(LocalStackPortInUseError);
      await expect(start).rejects.toThrow(
        new RegExp(`^Port ${taken.port} is already in use, so the .+ cannot start\\. Set ${variable} to a free port, or to 0`),
      );
      for (const other of Object.keys(ports) as Service[]) {
        if (other !== service) expect(await isListening(ports[other])).toBe(false);
      }
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

    expect(warnings).toEqual([expect.stringContaining('No cheat-sheet PDF at /nonexistent/cheat-sheet.pdf: run npm run build:pdf')]);
  });
});
