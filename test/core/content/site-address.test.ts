/** The site's address, written in content/site.yaml and in cdk.json: a production build refuses them differing. */

import { siteAddressMismatch } from '../../../core/content/site-address';

test('production with the same address (a trailing slash or capitals aside) builds', () => {
  expect(siteAddressMismatch('https://www.samoneill.com', 'https://WWW.samoneill.com/', 'production')).toBeNull();
  expect(siteAddressMismatch('https://www.samoneill.com', 'https://www.samoneill.com', undefined)).toBeNull();
});

test('production with two addresses stops, naming both places and each address', () => {
  const message = siteAddressMismatch('https://www.example.com', 'https://www.samoneill.com', 'production');
  expect(message).toContain('content/site.yaml, address: https://www.samoneill.com');
  expect(message).toContain('cdk.json, stages.production.siteUrl: https://www.example.com');
});

test("staging has an address of its own: not compared", () => {
  expect(siteAddressMismatch('https://staging.samoneill.com', 'https://www.samoneill.com', 'staging')).toBeNull();
});
