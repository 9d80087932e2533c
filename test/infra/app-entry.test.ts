/**
 * The app entry as the cdk CLI runs it: a missing or malformed senderEmail stops it before any
 * construct is built, with the message and nothing else (no stack trace).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './support/synth';

function runApp(context: Record<string, unknown>) {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cdk-app-entry-'));
  try {
    const result = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'infra/app.ts'], {
      cwd: repoRoot,
      // How the CLI hands context and the output folder to the app.
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: outdir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { ...result, outputFiles: readdirSync(outdir) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

describe('the app entry (infra/app.ts)', () => {
  test('stops without senderEmail, saying to pass -c senderEmail=you@yourdomain.com, and writes nothing', () => {
    const result = runApp({});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('senderEmail is missing');
    expect(result.stderr).toContain('-c senderEmail=you@yourdomain.com');
    expect(result.stderr).not.toMatch(/\bat .+\.ts:\d+/); // no stack trace
    expect(result.outputFiles).toEqual([]);
  });

  test('stops with a malformed senderEmail and names the bad value', () => {
    const result = runApp({ senderEmail: 'cheatsheet.example.com' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('senderEmail "cheatsheet.example.com" is not an e-mail address');
    expect(result.outputFiles).toEqual([]);
  });
});
