/**
 * What the proof of work costs a reader's browser: the built page's own solver chunk (the one the
 * form loads on submit), in headless Chromium with its CPU slowed (CDP's
 * `Emulation.setCPUThrottlingRate`, 4× being the usual stand-in for a mid-range phone), solving
 * challenges whose counter is the largest a challenge hides: the worst case a reader can meet.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { chromium } from 'playwright-core';
import { proofOfWorkAlgorithm, proofOfWorkMaxCounter } from '../../core/api/proof-of-work';

export interface SolveTimings {
  /** The solver chunk measured, as the build named it. */
  readonly chunk: string;
  /** Each solve's time in the page, in milliseconds, in order (the first on a cold page). */
  readonly milliseconds: readonly number[];
}

/** Serves the built site's assets, and an empty page on `/` (a secure context: loopback). */
function assetServer(siteDirectory: string): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/assets/') && !url.pathname.includes('..')) {
      response.writeHead(200, { 'Content-Type': 'text/javascript' });
      response.end(readFileSync(path.join(siteDirectory, url.pathname)));
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end('<!doctype html><title>proof of work</title>');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function measureSolveTimes(
  siteDirectory: string,
  { runs = 7, cpuSlowdown = 4, chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium' } = {},
): Promise<SolveTimings> {
  const chunk = readdirSync(path.join(siteDirectory, 'assets')).find((file) =>
    /^proof-of-work-solver-.*\.js$/.test(file),
  );
  if (!chunk) throw new Error(`No proof-of-work solver chunk in ${siteDirectory}/assets: run npm run build first.`);
  const server = await assetServer(siteDirectory);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    const milliseconds: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const challenge = await createChallenge({
        algorithm: proofOfWorkAlgorithm,
        cost: 1,
        counter: proofOfWorkMaxCounter - 1,
        deriveKey,
        hmacSignatureSecret: 'measurement',
        hmacKeySignatureSecret: 'measurement key',
      });
      milliseconds.push(
        await page.evaluate(
          async ({ url, challenge }) => {
            const started = performance.now();
            const solver = (await import(url)) as { solvedProof: (challenge: unknown) => Promise<string> };
            await solver.solvedProof(challenge);
            return performance.now() - started;
          },
          { url: `/assets/${chunk}`, challenge },
        ),
      );
    }
    return { chunk, milliseconds };
  } finally {
    await browser.close();
    server.close();
  }
}
