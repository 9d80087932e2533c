/**
 * The web ACL is part of the default deployment: with the stack in us-east-1 it is made in the
 * product stack itself and attached to the distribution (in another region it has a stack of its
 * own, test/infra/web-firewall-stack.test.ts). `-c waf=false` removes it and warns.
 */
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { apiPathPrefix } from '../../core/api/routes';
import { productRouteList } from '../../core/api/catalogue/routes';
import { noWebAclWarning } from '../../infra/constructs/site';
import { apiRateWindowSeconds } from '../../infra/constructs/web-firewall';
import { createTestApp, resourceByPrefix, validationReportsOf } from './support/synth';

type Rule = Record<string, any>;

describe('the default deployment in us-east-1', () => {
  let template: Template;
  beforeAll(() => {
    const { stack, webFirewallStack } = createTestApp({
      // No `waf` at all: the default, as `cdk deploy` without -c waf.
      context: { waf: undefined },
      deploymentTarget: { account: '123456789012', region: 'us-east-1' },
    });
    expect(webFirewallStack).toBeUndefined();
    template = Template.fromStack(stack);
  });

  const rules = () =>
    resourceByPrefix(template, 'AWS::WAFv2::WebACL', 'WebFirewallWebAcl').resource.Properties.Rules as Rule[];

  test('holds the one web ACL and attaches it to the distribution', () => {
    template.resourceCountIs('AWS::WAFv2::WebACL', 1);
    const webAcl = resourceByPrefix(template, 'AWS::WAFv2::WebACL', 'WebFirewallWebAcl');
    const distribution = resourceByPrefix(template, 'AWS::CloudFront::Distribution', 'SiteDistribution').resource;
    expect((distribution.Properties.DistributionConfig as Record<string, unknown>).WebACLId).toEqual({
      'Fn::GetAtt': [webAcl.logicalId, 'Arn'],
    });
  });

  test("checks AWS's IP reputation list before the per-client rate rule", () => {
    const names = [...rules()].sort((a, b) => a.Priority - b.Priority).map((rule) => rule.Name);
    expect(names.indexOf('AWS-AWSManagedRulesAmazonIpReputationList')).toBe(0);
    expect(names.indexOf('ApiRequestsPerIp')).toBe(1);
  });

  test('limits each client IP on /api/ alone, to a quarter of the smallest route throttle', () => {
    const { RateBasedStatement: rate } = rules().find((rule) => rule.Name === 'ApiRequestsPerIp')!.Statement;
    expect(rate.AggregateKeyType).toBe('IP');
    expect(rate.ScopeDownStatement.ByteMatchStatement).toMatchObject({
      FieldToMatch: { UriPath: {} },
      PositionalConstraint: 'STARTS_WITH',
      SearchString: apiPathPrefix,
    });
    // WAF counts per window; API Gateway throttles per second.
    const perClientPerSecond = rate.Limit / rate.EvaluationWindowSec;
    const smallestRate = Math.min(...productRouteList.map(({ throttle }) => throttle.rateLimit));
    expect(rate.EvaluationWindowSec).toBe(apiRateWindowSeconds);
    expect(perClientPerSecond).toBeLessThanOrEqual(smallestRate / 4);
    expect([rate.Limit, rate.EvaluationWindowSec, smallestRate]).toEqual([30, 60, 2]);
  });

  test('the distribution behind the web ACL serves IPv4 only, so the per-client rules count one address as one client', () => {
    const distribution = resourceByPrefix(template, 'AWS::CloudFront::Distribution', 'SiteDistribution').resource;
    const config = distribution.Properties.DistributionConfig as Record<string, unknown>;
    expect(config.WebACLId).toBeDefined();
    expect(config.IPV6Enabled).toBe(false);
  });

  test("limits each client IP on the site's own paths too, at most 2 requests a second on average", () => {
    const { RateBasedStatement: rate } = rules().find((rule) => rule.Name === 'SiteRequestsPerIp')!.Statement;
    expect(rate.AggregateKeyType).toBe('IP');
    expect(rate.ScopeDownStatement.NotStatement.Statement.ByteMatchStatement.SearchString).toBe(apiPathPrefix);
    expect(rate.Limit / rate.EvaluationWindowSec).toBeLessThanOrEqual(2);
  });
});

test('-c waf=false removes the web ACL and warns, naming what is then unprotected', () => {
  const { app, stack, webFirewallStack } = createTestApp({ context: { waf: 'false', senderDomain: 'example.com' } });
  expect(webFirewallStack).toBeUndefined();
  Template.fromStack(stack).resourceCountIs('AWS::WAFv2::WebACL', 0);
  // What `cdk synth` prints: the test app keeps it.
  expect(validationReportsOf(app).join('\n')).toContain(noWebAclWarning);
  const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp(noWebAclWarning));
  expect(warnings.map(({ entry }) => entry.data)).toEqual([
    expect.stringMatching(/one client's requests to \/api\/\*.*route throttles.*429.*IP reputation/),
  ]);
});
