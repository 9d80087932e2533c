/** The AWS WAF web ACL construct (`-c waf=true`), in a bare us-east-1 stack: what it contains, and where it refuses to be. */
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { productRouteList } from '../../../core/api/catalogue/routes';
import {
  apiRequestsPerClient,
  commonRuleSetExclusions,
  commonRuleSetKeptRules,
  rateLimitedBody,
  WebFirewall,
} from '../../../infra/constructs/web-firewall';
import { bareStack } from '../support/bare-stack';
import { resourceByPrefix, testApp } from '../support/synth';

const account = '123456789012';
type Rule = Record<string, any>;

function rulesOf(template: Template): Rule[] {
  return resourceByPrefix(template, 'AWS::WAFv2::WebACL', 'WebFirewallWebAcl').resource.Properties.Rules as Rule[];
}

describe('the web firewall', () => {
  let template: Template;
  beforeAll(() => {
    const stack = bareStack({ env: { account, region: 'us-east-1' } });
    new WebFirewall(stack, 'WebFirewall');
    template = Template.fromStack(stack);
  });

  test('is one CloudFront-scoped web ACL that lets through what no rule blocks', () => {
    template.resourceCountIs('AWS::WAFv2::WebACL', 1);
    expect(resourceByPrefix(template, 'AWS::WAFv2::WebACL', 'WebFirewallWebAcl').resource.Properties).toMatchObject({
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
    });
  });

  test("checks AWS's IP reputation list first, then the per-IP limits of the API and of the site, then AWS's Core rule set", () => {
    expect(rulesOf(template).map((rule) => [rule.Priority, rule.Name])).toEqual([
      [0, 'AWS-AWSManagedRulesAmazonIpReputationList'],
      [1, 'ApiRequestsPerIp'],
      [2, 'SiteRequestsPerIp'],
      [3, 'AWS-AWSManagedRulesCommonRuleSet'],
    ]);
    for (const rule of rulesOf(template)) {
      expect(rule.VisibilityConfig).toEqual({
        CloudWatchMetricsEnabled: true,
        MetricName: expect.any(String),
        SampledRequestsEnabled: true,
      });
    }
  });

  test("limits each IP to 30 requests to /api/* a minute, answering the rest 429 with the routes' JSON error", () => {
    const rateRule = rulesOf(template).find((rule) => rule.Name === 'ApiRequestsPerIp')!;

    expect(rateRule.Statement.RateBasedStatement).toEqual({
      Limit: 30,
      EvaluationWindowSec: 60,
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

  test('limits each IP to 600 requests for the pages and files (every path but /api/*) in five minutes, answering the rest 429', () => {
    const siteRule = rulesOf(template).find((rule) => rule.Name === 'SiteRequestsPerIp')!;

    expect(siteRule.Statement.RateBasedStatement).toEqual({
      Limit: 600,
      EvaluationWindowSec: 300,
      AggregateKeyType: 'IP',
      ScopeDownStatement: {
        NotStatement: {
          Statement: {
            ByteMatchStatement: {
              FieldToMatch: { UriPath: {} },
              PositionalConstraint: 'STARTS_WITH',
              SearchString: '/api/',
              TextTransformations: [{ Priority: 0, Type: 'NONE' }],
            },
          },
        },
      },
    });
    expect(siteRule.Action).toEqual({
      Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'siteRateLimited' } },
    });
    const bodies = resourceByPrefix(template, 'AWS::WAFv2::WebACL', 'WebFirewallWebAcl').resource.Properties
      .CustomResponseBodies as Record<string, { ContentType: string; Content: string }>;
    expect(bodies.siteRateLimited).toEqual({ ContentType: 'TEXT_PLAIN', Content: rateLimitedBody.error });
  });

  test('between them, the two rate rules count every request: the API rule its paths, the site rule all the others', () => {
    const [api, site] = ['ApiRequestsPerIp', 'SiteRequestsPerIp'].map(
      (name) => rulesOf(template).find((rule) => rule.Name === name)!.Statement.RateBasedStatement,
    );
    expect(site.ScopeDownStatement).toEqual({ NotStatement: { Statement: api.ScopeDownStatement } });
  });

  test('sizes the per-client limit as a quarter of the smallest route throttle over the window', () => {
    // The form route's 2 a second: a quarter is 0.5 a second, 30 in 60 s.
    expect(
      apiRequestsPerClient(
        productRouteList.map(({ throttle }) => throttle),
        60,
      ),
    ).toBe(30);
    expect(apiRequestsPerClient([{ rateLimit: 8, burstLimit: 16, reason: '' }], 120)).toBe(240);
  });

  test("refuses a throttle so small that a quarter of it is below WAF's minimum limit of 10", () => {
    expect(() => apiRequestsPerClient([{ rateLimit: 0.5, burstLimit: 1, reason: '' }], 60)).toThrow(
      /below WAF's minimum of 10/,
    );
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

describe('the web firewall construct', () => {
  test('refuses a stack outside us-east-1, where CloudFront cannot use a web ACL', () => {
    const stack = new Stack(testApp(), 'Elsewhere', { env: { account, region: 'eu-west-1' } });

    expect(() => new WebFirewall(stack, 'WebFirewall')).toThrow('A CloudFront web ACL must be created in us-east-1');
  });

  test('refuses an environment-agnostic stack, whose region is unknown until deployment', () => {
    expect(() => new WebFirewall(new Stack(testApp(), 'Anywhere'), 'WebFirewall')).toThrow(/us-east-1/);
  });
});
