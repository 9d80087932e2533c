/**
 * One Cache-Control policy for the cloud and the local server: the site deployment's object
 * metadata and what `npm start` sends agree for every file of a built site.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { cacheControlFor, hashedAssetsCacheControl, pagesCacheControl } from '../../infra/cache-policy';
import { staticSiteResponse } from '../../local/static-site';
import { siteInBareStack } from './support/bare-stack';
import { fixtures } from './support/synth';

/** Every file under `directory`, as S3 keys (`assets/index.js`). */
function keysUnder(directory: string, prefix = ''): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? keysUnder(path.join(directory, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

/** `aws s3 sync --exclude/--include` patterns: `*` matches any characters, `/` included. */
function matches(pattern: string, key: string): boolean {
  const regex = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${regex}$`).test(key);
}

/** Whether a deployment uploads `key`: filters apply in order, the last match wins, default include. */
function uploads(deployment: { Exclude?: string[]; Include?: string[] }, key: string): boolean {
  // The construct passes all excludes, then all includes (BucketDeployment's CLI argument order).
  const filters = [
    ...(deployment.Exclude ?? []).map((pattern) => ({ pattern, include: false })),
    ...(deployment.Include ?? []).map((pattern) => ({ pattern, include: true })),
  ];
  return filters.reduce((included, filter) => (matches(filter.pattern, key) ? filter.include : included), true);
}

describe('the cache policy', () => {
  test('keeps hashed assets a year and revalidates everything else', () => {
    expect(cacheControlFor('assets/index-3f2a1b9c.js')).toBe(hashedAssetsCacheControl);
    expect(cacheControlFor('/assets/index-3f2a1b9c.js')).toBe(hashedAssetsCacheControl);
    for (const key of ['index.html', '404.html', 'images/cover.svg', 'robots.txt']) {
      expect(cacheControlFor(key)).toBe(pagesCacheControl);
    }
  });

  describe('in the cloud and locally', () => {
    let siteDeployments: Array<{ Exclude?: string[]; Include?: string[]; SystemMetadata: Record<string, string> }>;
    beforeAll(() => {
      const { template } = siteInBareStack();
      siteDeployments = Object.values(template.findResources('Custom::CDKBucketDeployment'))
        .map((resource) => resource.Properties)
        .filter((properties) => JSON.stringify(properties.DestinationBucketName).includes('SiteBucket'));
    });

    test.each(keysUnder(fixtures.siteDirectory))('gives %s the same Cache-Control', async (key) => {
      const deployingIt = siteDeployments.filter((deployment) => uploads(deployment, key));
      expect(deployingIt).toHaveLength(1);
      const cloud = deployingIt[0]!.SystemMetadata['cache-control'];

      const local = (await staticSiteResponse(fixtures.siteDirectory, `/${key}`)).headers['Cache-Control'];

      expect(local).toBe(cloud);
      expect(cloud).toBe(cacheControlFor(key));
    });
  });
});
