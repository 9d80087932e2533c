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
    // The ninth, outside the page's sections: the address every e-mail links to (its line as the file has it now).
    expect(samplePlaceholders.find(({ name }) => name === "the site's address")?.file).toBe('content/site.yaml');
    expect(run.stdout()).not.toContain('Pre-rendered');
  },
  spawnTimeout,
);
