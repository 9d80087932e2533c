import { postJson } from '../support/post-json';
/** `npm run dev` (tsx local/dev.ts): Vite's dev server with /api proxied to the local API. */

import { isListening, occupyPort } from './support/ports';
import { freePorts, spawnScript } from '../support/spawned-script';

jest.setTimeout(60_000);

/** The first four lines local/dev.ts prints itself: Vite's own notices (a re-optimization, say) can come between. */
async function endpointLines(dev: ReturnType<typeof spawnScript>): Promise<string[]> {
  for (let count = 4; ; count++) {
    const own = (await dev.lines(count)).filter((line) => !line.includes('[vite]'));
    if (own.length >= 4) return own;
  }
}

describe('npm run dev', () => {
  test("serves Vite's page, proxies /api to the real handlers, and stops cleanly", async () => {
    const dev = spawnScript('local/dev.ts', freePorts);
    try {
      const lines = await endpointLines(dev);
      expect(lines.slice(0, 4)).toEqual([
        expect.stringMatching(/^Site: {6}http:\/\/localhost:\d+\/$/),
        expect.stringMatching(/^Mail: {6}http:\/\/localhost:\d+\/$/),
        expect.stringMatching(/^DynamoDB: {2}http:\/\/localhost:\d+$/),
        expect.stringMatching(/^S3: {8}http:\/\/localhost:\d+$/),
      ]);
      const site = lines[0]!.split(/\s+/)[1]!.replace('localhost', '127.0.0.1');

      const page = await (await fetch(site)).text();
      expect(page).toContain('/@vite/client');
      // Rendered as the build pre-renders it, so the island hydrates in dev as in production.
      expect(page).toContain('id="cheat-sheet-form-island"');
      expect(page).toContain('Get Your Free Business Operations Cheat Sheet');
      const reply = await postJson(new URL('/api/cheat-sheet-requests', site), { name: '', email: 'ada@example.com' });
      expect(reply.status).toBe(400);
      expect(await reply.json()).toEqual({ error: 'Please enter your name.', code: 'invalid_request' });

      dev.child.kill('SIGTERM');

      expect(await dev.exited).toBe(0);
      expect(await isListening(Number(new URL(site).port))).toBe(false);
    } finally {
      dev.child.kill('SIGKILL');
    }
  });

  test("exits non-zero with a message naming PORT when Vite's port is taken", async () => {
    const taken = await occupyPort();
    try {
      const dev = spawnScript('local/dev.ts', { ...freePorts, PORT: String(taken.port) });

      expect(await dev.exited).toBe(1);
      expect(dev.stderr()).toContain(`Port ${taken.port} is already in use`);
      expect(dev.stderr()).toContain('Set PORT to a free port');
    } finally {
      await taken.release();
    }
  });
});
