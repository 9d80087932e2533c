import { cloudFrontNameLimits, regionalName } from '../../../infra/constructs/regional-name';
import { bareStack } from '../support/bare-stack';

// The longest name CloudFormation allows for a stack.
const longestStackName = `Book${'x'.repeat(120)}Site`;

describe('regionalName', () => {
  test('is the stack name, the region and the purpose, joined by hyphens', () => {
    const stack = bareStack({ stackName: 'BookSite', env: { region: 'eu-west-2' } });
    expect(regionalName(stack, 'page-paths', cloudFrontNameLimits.function)).toBe('BookSite-eu-west-2-page-paths');
  });

  test('differs between two regions for the same stack name', () => {
    const inIreland = bareStack({ stackName: 'BookSite', env: { region: 'eu-west-1' } });
    const inVirginia = bareStack({ stackName: 'BookSite', env: { region: 'us-east-1' } });
    expect(regionalName(inIreland, 'site-bucket', 64)).not.toBe(regionalName(inVirginia, 'site-bucket', 64));
  });

  test('keeps a literal name within the limit, however long the stack name', () => {
    const stack = bareStack({ stackName: longestStackName, env: { region: 'ap-southeast-5' } });
    const name = regionalName(stack, 'api-origin-requests', cloudFrontNameLimits.originAccessControl);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(name).toMatch(/^Bookx+-[0-9a-f]{8}-ap-southeast-5-api-origin-requests$/);
  });

  test('leaves room for the longest region when the region is known only at deploy time', () => {
    const stack = bareStack({ stackName: longestStackName });
    const name = regionalName(stack, 'page-paths', cloudFrontNameLimits.function);
    const resolved = (stack.resolve(name) as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    const withLongestRegion = resolved.map((part) => (typeof part === 'string' ? part : 'eusc-de-east-1')).join('');
    expect(withLongestRegion.length).toBeLessThanOrEqual(64);
  });

  test('gives two long stack names that share their first characters two different names', () => {
    const first = bareStack({ stackName: `${longestStackName.slice(0, -1)}A`, env: { region: 'eu-west-1' } });
    const second = bareStack({ stackName: `${longestStackName.slice(0, -1)}B`, env: { region: 'eu-west-1' } });
    expect(regionalName(first, 'page-paths', 64)).not.toBe(regionalName(second, 'page-paths', 64));
  });

  test('refuses a purpose a CloudFront function name could not hold', () => {
    expect(() => regionalName(bareStack(), 'page paths', 64)).toThrow('may hold only letters, digits and hyphens');
  });
});
