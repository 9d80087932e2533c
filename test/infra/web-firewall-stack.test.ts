/**
 * `-c waf=true` with the stack outside us-east-1: the web ACL goes into a small companion stack in
 * us-east-1 (infra/web-firewall-stack.ts), which the product stack reads and deploys after. The
 * product synthesized once; the web ACL's rules are tested with the construct.
 */
import type { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ConfigError } from '../../infra/config';
import { createTestApp, resourceByPrefix } from './support/synth';

const account = '123456789012';

function webAclIdOf(template: Template): unknown {
  const distribution = resourceByPrefix(template, 'AWS::CloudFront::Distribution', 'SiteDistribution').resource;
  return (distribution.Properties.DistributionConfig as Record<string, unknown>).WebACLId;
}

describe('with -c waf=true, in another region', () => {
  let app: App;
  let site: Template;
  let firewall: Template;
  beforeAll(() => {
    const created = createTestApp({ context: { waf: 'true' }, deploymentTarget: { account, region: 'eu-west-1' } });
    app = created.app;
    site = Template.fromStack(created.stack);
    firewall = Template.fromStack(created.webFirewallStack!);
    expect(created.stack.region).toBe('eu-west-1');
    expect(created.webFirewallStack!.region).toBe('us-east-1');
    expect(created.webFirewallStack!.stackName).toBe('First100DaysSiteWebFirewall');
  });

  test('creates the web ACL in a small us-east-1 companion stack, and none in the product stack', () => {
    expect(Object.keys(firewall.toJSON().Resources)).toEqual([expect.stringMatching(/^WebFirewallWebAcl/)]);
    firewall.resourceCountIs('AWS::WAFv2::WebACL', 1);
    site.resourceCountIs('AWS::WAFv2::WebACL', 0);
  });

  test("attaches it to the distribution by reading the companion stack's output in us-east-1", () => {
    expect(webAclIdOf(site)).toEqual({
      'Fn::GetStackOutput': {
        StackName: 'First100DaysSiteWebFirewall',
        Region: 'us-east-1',
        OutputName: expect.stringMatching(/WebFirewallWebAcl/),
      },
    });
  });

  test('deploys the companion stack first', () => {
    const assembly = app.synth();
    const dependencies = assembly.getStackByName('First100DaysSite').dependencies.map((dependency) => dependency.id);
    expect(dependencies).toContain('First100DaysSiteWebFirewall');
  });
});

test('with -c waf=true, the app refuses to guess a region', () => {
  expect(() => createTestApp({ context: { waf: 'true' }, deploymentTarget: {} })).toThrow(ConfigError);
});
