/**
 * `-c waf=true` with the stack in us-east-1: the web ACL is made in the product stack itself and
 * attached to the distribution. Without the flag there is none (test/infra/stack.test.ts); in
 * another region it has a stack of its own (test/infra/web-firewall-stack.test.ts).
 */
import { Template } from 'aws-cdk-lib/assertions';
import { createTestApp, resourceByPrefix } from './support/synth';

test('with -c waf=true in us-east-1, the product stack holds the one web ACL and attaches it to the distribution', () => {
  const { stack, webFirewallStack } = createTestApp({
    context: { waf: 'true' },
    deploymentTarget: { account: '123456789012', region: 'us-east-1' },
  });
  expect(webFirewallStack).toBeUndefined();
  const template = Template.fromStack(stack);
  template.resourceCountIs('AWS::WAFv2::WebACL', 1);
  const webAcl = resourceByPrefix(template, 'AWS::WAFv2::WebACL', 'WebFirewallWebAcl');
  const distribution = resourceByPrefix(template, 'AWS::CloudFront::Distribution', 'SiteDistribution').resource;
  expect((distribution.Properties.DistributionConfig as Record<string, unknown>).WebACLId).toEqual({
    'Fn::GetAtt': [webAcl.logicalId, 'Arn'],
  });
});
