/**
 * `-c pricingPlan=free`: CloudFront's flat-rate Free plan covers the distribution and its web ACL,
 * the distribution uses managed policies only, the security headers still reach every response
 * (from a CloudFront Function), and the synth checks the plan's limits.
 */
import { runInNewContext } from 'node:vm';
import { Template } from 'aws-cdk-lib/assertions';
import { freePlanProblems } from '../../../infra/constructs/flat-rate-plan';
import { securityHeadersFunctionCode } from '../../../infra/security-headers-function';
import { securityHeaders } from '../../../core/config/edge-headers';
import { createTestApp } from '../support/synth';

const env = { account: '111111111111', region: 'us-east-1' };
const context = { senderDomain: 'example.com', waf: 'true' };
const free = createTestApp({ env, context: { ...context, pricingPlan: 'free' } });
const template = Template.fromStack(free.stack);

describe('with pricingPlan=free', () => {
  test('a Free-tier CloudFront subscription covers the distribution and its web ACL', () => {
    const [subscription] = Object.values(template.findResources('AWS::PricingPlanManager::Subscription'));
    expect(subscription.Properties).toMatchObject({ PlanFamily: 'CloudFront', PlanTier: 'FREE' });
    const arns = JSON.stringify(subscription.Properties.ResourceArns);
    const distributionId = free.stack.getLogicalId(free.stack.site.distribution.node.defaultChild as never);
    const webAclId = free.stack.getLogicalId(free.stack.webFirewall!.webAcl);
    expect(arns).toContain(`{"Ref":"${distributionId}"}`);
    expect(arns).toContain(`"${webAclId}","Arn"`);
  });

  test('the distribution uses no policy of its own, and the synth finds nothing over the limits', () => {
    expect(template.findResources('AWS::CloudFront::ResponseHeadersPolicy')).toEqual({});
    expect(template.findResources('AWS::CloudFront::OriginRequestPolicy')).toEqual({});
    expect(
      freePlanProblems(free.stack, {
        distribution: free.stack.site.distribution,
        webAcl: free.stack.webFirewall!.webAcl,
      }),
    ).toEqual([]);
  });

  test('a viewer-response function sets the security headers on the site and the API', () => {
    const functionId = free.stack.getLogicalId(free.stack.site.securityHeadersFunction!.node.defaultChild as never);
    const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution'));
    const config = distribution.Properties.DistributionConfig as {
      DefaultCacheBehavior: { FunctionAssociations: unknown[] };
      CacheBehaviors: { FunctionAssociations: unknown[] }[];
    };
    const association = { EventType: 'viewer-response', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } };
    expect(config.DefaultCacheBehavior.FunctionAssociations).toContainEqual(association);
    for (const behavior of config.CacheBehaviors) expect(behavior.FunctionAssociations).toContainEqual(association);
  });
});

test("the security-headers function's code sets every security header on the response", () => {
  // Run as CloudFront runs it: the function's source alone, in a context of its own.
  const handler = runInNewContext(`${securityHeadersFunctionCode()}; handler;`) as (event: unknown) => {
    headers: Record<string, { value: string }>;
  };
  const response = handler({ response: { statusCode: 200, headers: { 'x-frame-options': { value: 'SAMEORIGIN' } } } });
  for (const [name, value] of Object.entries(securityHeaders)) {
    expect([name, response.headers[name.toLowerCase()]?.value]).toEqual([name, value]);
  }
});

test('the synth check names what pay-as-you-go uses that the Free plan does not allow', () => {
  const paying = createTestApp({ env, context });
  const problems = freePlanProblems(paying.stack, {
    distribution: paying.stack.site.distribution,
    webAcl: paying.stack.webFirewall!.webAcl,
  });
  expect(problems.join('\n')).toMatch(/AWS managed policies only: .*responseHeadersPolicy/);
});
