/**
 * The optional AWS WAF web ACL (`-c waf=true`): where it is created, what it contains, and that
 * nothing of it exists without the flag.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import {
  commonRuleSetExclusions,
  commonRuleSetKeptRules,
  rateLimitedBody,
  WebFirewall,
} from '../../infra/constructs/web-firewall';
import { ConfigError } from '../../infra/config';
import { createTestApp, resourceByPrefix } from './support/synth';

const account = '123456789012';
type Rule = Record<string, any>;

function rulesOf(template: Template): Rule[] {
  return resourceByPrefix(template, 'AWS::WAFv2::WebACL', 'WebFirewallWebAcl').resource.Properties.Rules as Rule[];
}

function webAclIdOf(template: Template): unknown {
  const distribution = resourceByPrefix(template, 'AWS::CloudFront::Distribution', 'SiteDistribution').resource;
  return (distribution.Properties.DistributionConfig as Record<string, unknown>).WebACLId;
}

describe('without -c waf=true', () => {
  test('the app has one stack, environment-agnostic, with no WAF resource', () => {
    const { app, stack, webFirewallStack } = createTestApp({ deploymentTarget: { account, region: 'eu-west-1' } });

    expect(app.node.children.filter((child) => child instanceof Stack)).toEqual([stack]);
    expect(webFirewallStack).toBeUndefined();
    expect(stack.environment).toBe('aws://unknown-account/unknown-region');
    Template.fromStack(stack).resourceCountIs('AWS::WAFv2::WebACL', 0);
  });
});

describe('with -c waf=true, in us-east-1', () => {
  let template: Template;
  beforeAll(() => {
    const { stack, webFirewallStack } = createTestApp({
      context: { waf: 'true' },
      deploymentTarget: { account, region: 'us-east-1' },
    });
    expect(webFirewallStack).toBeUndefined();
    template = Template.fromStack(stack);
  });

  test('creates one CloudFront-scoped web ACL in the product stack and attaches it to the distribution', () => {
    template.resourceCountIs('AWS::WAFv2::WebACL', 1);
    const webAcl = resourceByPrefix(template, 'AWS::WAFv2::WebACL', 'WebFirewallWebAcl');
    expect(webAcl.resource.Properties).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    expect(webAclIdOf(template)).toEqual({ 'Fn::GetAtt': [webAcl.logicalId, 'Arn'] });
  });

  test("checks AWS's IP reputation list first, then the per-IP limit, then AWS's Core rule set", () => {
    expect(rulesOf(template).map((rule) => [rule.Priority, rule.Name])).toEqual([
      [0, 'AWS-AWSManagedRulesAmazonIpReputationList'],
      [1, 'ApiRequestsPerIp'],
      [2, 'AWS-AWSManagedRulesCommonRuleSet'],
    ]);
    for (const rule of rulesOf(template)) {
      expect(rule.VisibilityConfig).toEqual({
        CloudWatchMetricsEnabled: true,
        MetricName: expect.any(String),
        SampledRequestsEnabled: true,
      });
    }
  });

  test("limits each IP to 100 requests to /api/* per 5 minutes, answering the rest 429 with the routes' JSON error", () => {
    const rateRule = rulesOf(template).find((rule) => rule.Name === 'ApiRequestsPerIp')!;

    expect(rateRule.Statement.RateBasedStatement).toEqual({
      Limit: 100,
      EvaluationWindowSec: 300,
      AggregateKeyType: 'IP',
      ScopeDownStatement: {
        ByteMatchStatement: {
          FieldToMatch: { UriPath: {} },
          PositionalConstraint: 'STARTS_WITH',
          SearchString: '/api/',
          TextTransformations: [{ Priority: 0, Type: 'NONE' }],
        },
      },
    });
    expect(rateRule.Action).toEqual({
      Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'rateLimited' } },
    });
    const body = resourceByPrefix(template, 'AWS::WAFv2::WebACL', 'WebFirewallWebAcl').resource.Properties
      .CustomResponseBodies as Record<string, { ContentType: string; Content: string }>;
    expect(body.rateLimited!.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.rateLimited!.Content)).toEqual(rateLimitedBody);
    expect(rateLimitedBody.error).not.toMatch(/domain|verify/i);
  });

  test('counts instead of blocking only SizeRestrictions_BODY of the Core rule set, which the 10 KB API contract contradicts', () => {
    const coreRuleSet = rulesOf(template).find((rule) => rule.Name === 'AWS-AWSManagedRulesCommonRuleSet')!;

    expect(coreRuleSet.OverrideAction).toEqual({ None: {} });
    expect(coreRuleSet.Statement.ManagedRuleGroupStatement).toEqual({
      VendorName: 'AWS',
      Name: 'AWSManagedRulesCommonRuleSet',
      RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
    });
    expect(commonRuleSetExclusions.map(({ rule }) => rule)).toEqual(['SizeRestrictions_BODY']);
    // Kept blocking on purpose: every browser sends a User-Agent; no accepted form field holds markup or a URL.
    const overridden = JSON.stringify(coreRuleSet.Statement);
    for (const kept of commonRuleSetKeptRules) expect(overridden).not.toContain(kept);
  });

  test('leaves the IP reputation list as AWS ships it', () => {
    const reputation = rulesOf(template).find((rule) => rule.Name === 'AWS-AWSManagedRulesAmazonIpReputationList')!;

    expect(reputation.Statement.ManagedRuleGroupStatement).toEqual({
      VendorName: 'AWS',
      Name: 'AWSManagedRulesAmazonIpReputationList',
    });
    expect(reputation.OverrideAction).toEqual({ None: {} });
  });
});

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

describe('the web firewall construct', () => {
  test('refuses a stack outside us-east-1, where CloudFront cannot use a web ACL', () => {
    const stack = new Stack(new App(), 'Elsewhere', { env: { account, region: 'eu-west-1' } });

    expect(() => new WebFirewall(stack, 'WebFirewall')).toThrow('A CloudFront web ACL must be created in us-east-1');
  });

  test('refuses an environment-agnostic stack, whose region is unknown until deployment', () => {
    expect(() => new WebFirewall(new Stack(new App(), 'Anywhere'), 'WebFirewall')).toThrow(/us-east-1/);
  });

  test('with -c waf=true, the app refuses to guess a region', () => {
    expect(() => createTestApp({ context: { waf: 'true' }, deploymentTarget: {} })).toThrow(ConfigError);
  });
});
