/**
 * A build for production (`SITE_URL`, and `STAGE` production or unset) stops while content/ holds a
 * placeholder, naming each with its file and line, before it renders anything.
 */
import { readFileSync } from 'node:fs';
import { locatePlaceholders, placeholderFiles } from '../../../core/content/placeholders';
import { spawnScript } from '../../support/spawned-script';

const script = 'frontend/build/prerender.ts';
const spawnTimeout = 60_000;

const samplePlaceholders = locatePlaceholders(
  Object.fromEntries(placeholderFiles.map((file) => [file, readFileSync(`content/${file}`, 'utf8')])),
);

test.each([
  ['STAGE=production', { STAGE: 'production' }],
  ['no STAGE (the stage-less stack is production)', { STAGE: '' }],
])(
  'with SITE_URL and %s, exits 1 naming every placeholder left with its file and line',
  async (_, stage) => {
    // The repository's content is the sample: its placeholders are all there.
    expect(samplePlaceholders.length).toBeGreaterThan(0);
    const run = spawnScript(script, { SITE_URL: 'https://www.example.com', ...stage });
    expect(await run.exited).toBe(1);
    for (const { file, line, name } of samplePlaceholders) expect(run.stderr()).toContain(`${file}:${line}: ${name}`);
    expect(run.stderr()).toContain("content/site.yaml:11: the site's address");
    expect(run.stdout()).not.toContain('Pre-rendered');
  },
  spawnTimeout,
);
