import { postJson } from '../support/post-json';
/** `npm start` (tsx local/start.ts) as a person runs it. SKIP_BUILD=1: these tests must not rebuild the site. */

import { isListening, occupyPort } from './support/ports';
import { rawRequest } from './support/raw-request';
import { freePorts, spawnScript } from '../support/spawned-script';

jest.setTimeout(60_000);

const portOf = (url: string) => Number(new URL(url).port);

describe('npm start with its defaults', () => {
  // One product for these tests, in order: what it prints, what it serves, then Ctrl-C. SIGTERM at
  // every moment of its life is test/local/stop-on-signal.test.ts's.
  let start: ReturnType<typeof spawnScript>;
  let lines: string[];
  const urls = () => lines.slice(0, 4).map((line) => line.split(/\s+/)[1]!);
  beforeAll(async () => {
    start = spawnScript('local/start.ts', { ...freePorts, SKIP_BUILD: '1' });
    lines = await start.lines(4);
  });
  afterAll(() => start.child.kill('SIGKILL'));

  test('prints the four endpoint lines', () => {
    expect(lines.slice(0, 4)).toEqual([
      expect.stringMatching(/^Site: {6}http:\/\/localhost:\d+\/$/),
      expect.stringMatching(/^Mail: {6}http:\/\/localhost:\d+\/$/),
      expect.stringMatching(/^DynamoDB: {2}http:\/\/localhost:\d+$/),
      expect.stringMatching(/^S3: {8}http:\/\/localhost:\d+$/),
    ]);
  });

  test('serves the site, the API and the captured mail', async () => {
    const [site, mail] = urls() as [string, string];
    expect((await fetch(site)).headers.get('content-security-policy')).toContain("default-src 'self'");
    const save = await postJson(new URL('/api/cheat-sheet-requests', site), {
      name: 'Ada',
      email: 'ada@example.com',
    });
    expect(save.status).toBe(201);
    expect((await fetch(new URL('store', mail))).status).toBe(200);
  });

  test('turns the recipient-domain check and the proof of work off unless their variables are given', async () => {
    const [site] = urls() as [string];
    // A send with no X-Cheat-Sheet-Proof goes through: CHEAT_SHEET_CHALLENGE is off (the e2e product runs it on).
    const send = await rawRequest(site, '/api/send-cheat-sheet', {
      method: 'POST',
      localAddress: '127.0.0.31',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@no-such-domain.invalid' }),
    });
    expect(send.status).toBe(200);
    const challenge = await fetch(new URL('/api/cheat-sheet-challenge', site.replace('//localhost:', '//127.0.0.1:')));
    expect(await challenge.json()).toEqual({ required: false });
  });

  test('stops cleanly on Ctrl-C (SIGINT), freeing all four ports', async () => {
    start.child.kill('SIGINT');

    expect(await start.exited).toBe(0);
    for (const url of urls()) expect(await isListening(portOf(url))).toBe(false);
  });
});

describe('npm start', () => {
  test('honours CHEAT_SHEET_CLIENT_HOURLY_LIMIT and CHEAT_SHEET_DAILY_SEND_BUDGET from the environment', async () => {
    const start = spawnScript('local/start.ts', {
      ...freePorts,
      SKIP_BUILD: '1',
      CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '1',
      CHEAT_SHEET_DAILY_SEND_BUDGET: '2',
    });
    try {
      const site = (await start.lines(4))[0]!.split(/\s+/)[1]!;
      let visitor = 0;
      const sendFrom = async (localAddress: string) => {
        visitor += 1;
        const response = await rawRequest(site, '/api/send-cheat-sheet', {
          method: 'POST',
          localAddress,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Ada', email: `ada.start.${visitor}@example.com` }),
        });
        return response.status;
      };

      // One client: 1 an hour. Two sends in all: the third client finds the budget spent.
      expect([await sendFrom('127.0.0.6'), await sendFrom('127.0.0.6')]).toEqual([200, 429]);
      expect([await sendFrom('127.0.0.7'), await sendFrom('127.0.0.8')]).toEqual([200, 503]);

      start.child.kill('SIGTERM');
      expect(await start.exited).toBe(0);
    } finally {
      start.child.kill('SIGKILL');
    }
  });

  test('exits non-zero with a message naming the variable when a port is taken', async () => {
    const taken = await occupyPort();
    try {
      const start = spawnScript('local/start.ts', { ...freePorts, SKIP_BUILD: '1', DYNAMODB_PORT: String(taken.port) });

      expect(await start.exited).toBe(1);
      expect(start.stderr()).toContain(`Port ${taken.port} is already in use`);
      expect(start.stderr()).toContain('Set DYNAMODB_PORT to a free port');
      expect(start.stdout()).toBe('');
    } finally {
      await taken.release();
    }
  });

  test('exits non-zero with a message naming the variable when a port is not a number', async () => {
    const start = spawnScript('local/start.ts', { ...freePorts, SKIP_BUILD: '1', MAIL_PORT: 'mail' });

    expect(await start.exited).toBe(1);
    expect(start.stderr()).toContain('MAIL_PORT=mail is not a port');
  });
});

describe('npm start and the abuse limits of issue 19', () => {
  /** Starts `npm start` with `env`, runs `use` against its site address, then stops it. */
  async function withStart(env: Record<string, string>, use: (site: string) => Promise<void>): Promise<void> {
    const start = spawnScript('local/start.ts', { ...freePorts, SKIP_BUILD: '1', ...env });
    try {
      await use((await start.lines(4))[0]!.split(/\s+/)[1]!);
      start.child.kill('SIGTERM');
      expect(await start.exited).toBe(0);
    } finally {
      start.child.kill('SIGKILL');
    }
  }

  let visitor = 0;
  async function post(site: string, route: string, localAddress: string, email?: string) {
    visitor += 1;
    const response = await rawRequest(site, route, {
      method: 'POST',
      localAddress,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: email ?? `ada.abuse-start.${visitor}@example.com` }),
    });
    return response.status;
  }

  test('honours CHEAT_SHEET_NETWORK_HOURLY_LIMIT: loopback clients share one /24', async () => {
    await withStart({ CHEAT_SHEET_NETWORK_HOURLY_LIMIT: '2' }, async (site) => {
      const statuses = [];
      for (const client of ['127.0.0.11', '127.0.0.12', '127.0.0.13']) {
        statuses.push(await post(site, '/api/send-cheat-sheet', client));
      }

      expect(statuses).toEqual([200, 200, 429]);
    });
  });

  test('honours CHEAT_SHEET_CLIENT_HOURLY_SAVE_LIMIT and CHEAT_SHEET_NETWORK_HOURLY_SAVE_LIMIT', async () => {
    await withStart(
      { CHEAT_SHEET_CLIENT_HOURLY_SAVE_LIMIT: '1', CHEAT_SHEET_NETWORK_HOURLY_SAVE_LIMIT: '2' },
      async (site) => {
        const route = '/api/cheat-sheet-requests';
        // One client: 1 an hour. Two in all on the /24: the third client is refused too.
        expect([await post(site, route, '127.0.0.21'), await post(site, route, '127.0.0.21')]).toEqual([201, 429]);
        expect([await post(site, route, '127.0.0.22'), await post(site, route, '127.0.0.23')]).toEqual([201, 429]);
      },
    );
  });

  test('checks the recipient domain with CHEAT_SHEET_RECIPIENT_DOMAIN_CHECK=on', async () => {
    await withStart({ CHEAT_SHEET_RECIPIENT_DOMAIN_CHECK: 'on' }, async (site) => {
      expect(await post(site, '/api/send-cheat-sheet', '127.0.0.41', 'ada@no-such-domain.invalid')).toBe(400);
    });
  });
});
