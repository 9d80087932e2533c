/**
 * The stage's sample values in cdk.json: the repository ships its stages with addresses and links
 * at example.com (the author's `authorEmail`, the sender, the alarms' mailbox, the site's address),
 * a domain reserved for examples (RFC 2606) that can never be anyone's real one. Like the content's
 * placeholders, each is named with its file and line: for production a failure (a live digest or
 * alarm mailed to nobody), for another stage a warning.
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { placeholderPolicyFor } from '../../core/content/placeholders';
import type { CheckResult } from './check-result';

/** One sample value: its key in the stage, the value and its line in cdk.json. */
export interface SampleStageValue {
  readonly key: string;
  readonly value: string;
  readonly line: number;
}

/** RFC 2606's example domains (`example.com`, `.net`, `.org`, `.example`) and their subdomains. */
const exampleDomain = /(^|\.)example(\.(com|net|org))?$/i;

/** The host a value names: an address's domain, a URL's host, or a bare domain. */
function hostOf(value: string): string | undefined {
  const address = /^[^\s@]+@([^\s@]+)$/.exec(value);
  if (address) return address[1];
  if (/^https?:\/\//i.test(value)) {
    try {
      return new URL(value).hostname;
    } catch {
      return undefined;
    }
  }
  return /^[a-z0-9.-]+$/i.test(value) ? value : undefined;
}

/** The line (1-based) of `"key"` in the stage's entry: found after `"stages"`, then `"<stage>"`. */
function lineOf(text: string, stage: string, key: string): number {
  const stages = text.indexOf('"stages"');
  const entry = text.indexOf(`"${stage}"`, stages);
  const at = text.indexOf(`"${key}"`, entry);
  return at < 0 ? 0 : text.slice(0, at).split('\n').length;
}

/** The values of cdk.json's stage `stage` that are still at an example domain. */
export function sampleStageValues(cdkJsonText: string, stage: string): SampleStageValue[] {
  const parsed = JSON.parse(cdkJsonText) as { context?: { stages?: Record<string, Record<string, unknown>> } };
  const entry = parsed.context?.stages?.[stage] ?? {};
  return Object.entries(entry).flatMap(([key, value]) => {
    if (typeof value !== 'string') return [];
    const host = hostOf(value.trim());
    return host !== undefined && exampleDomain.test(host)
      ? [{ key, value, line: lineOf(cdkJsonText, stage, key) }]
      : [];
  });
}

export async function readSampleStageValues(root: string, stage: string): Promise<SampleStageValue[]> {
  return sampleStageValues(await readFile(path.join(root, 'cdk.json'), 'utf8'), stage);
}

export function checkStageValues(samples: readonly SampleStageValue[], stage: string): CheckResult {
  if (samples.length === 0) {
    return { name: 'stage values', status: 'PASS', detail: `no example.com value left in stages.${stage}` };
  }
  const policy = placeholderPolicyFor(stage);
  return {
    name: 'stage values',
    status: policy === 'fail' ? 'FAIL' : 'WARN',
    detail: `sample values still in cdk.json: ${samples
      .map(({ key, value, line }) => `cdk.json:${line}: stages.${stage}.${key} "${value}"`)
      .join('; ')}`,
    fix: `set each to your own (docs/deploy.md, 'Stages'; authorEmail: docs/author.md, 'Your address for the leads')${
      policy === 'fail' ? '; production refuses sample values, staging only warns' : ''
    }.`,
  };
}
