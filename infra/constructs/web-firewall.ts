import { Stack, Token } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { apiPathPrefix } from '../../core/api/routes';

/**
 * Rules of AWS's Core rule set that the product's own requests could trip, each overridden to
 * count (it still shows in the metrics, it blocks nothing), with the reason. Every other rule of
 * the set blocks. The page's requests are GETs of its files and two small JSON POSTs (name,
 * e-mail, empty honeypot: a few hundred bytes); the no-script form of the same routes posts the
 * same fields form-encoded.
 */
export const commonRuleSetExclusions: ReadonlyArray<{ readonly rule: string; readonly reason: string }> = [
  {
    rule: 'SizeRestrictions_BODY',
    // The rule blocks bodies over 8 KB with a bare 403; the API's contract takes up to 10 KB and
    // answers anything larger with its own JSON 413 (lambdas/shared/http-request.ts).
    reason:
      "the API's documented body limit is 10 KB with its own JSON error; the rule would answer 8-10 KB bodies with a bare 403",
  },
];

/**
 * Rules of the Core rule set deliberately left blocking, though they inspect what the page sends:
 * every browser sends a User-Agent, and no field of the form may hold markup, a path or a URL
 * the schema would accept (names refuse links; the honeypot is empty for people).
 */
export const commonRuleSetKeptRules = ['NoUserAgent_HEADER', 'CrossSiteScripting_BODY', 'GenericRFI_BODY'] as const;

export interface WebFirewallProps {
  /**
   * Requests one IP address may send to `/api/*` in 5 minutes before the rest are refused (429).
   * One form submission is two requests, so 100 is 50 submissions: far above a person, or an
   * office behind one address, and a 30th of what the stage throttle lets through in the same
   * time (10 a second), so one client cannot use up the throttle that everyone shares.
   *
   * @default 100
   */
  readonly apiRequestsPerFiveMinutes?: number;
}

/** The JSON a rate-limited `/api/*` request gets: both routes' error shape, so the page shows it. */
export const rateLimitedBody = {
  success: false,
  error: 'Too many requests from your network. Please wait a few minutes and try again.',
} as const;

/**
 * An AWS WAF web ACL for the CloudFront distribution (`-c waf=true`): AWS's IP reputation list,
 * a per-IP rate limit on `/api/*`, and AWS's Core rule set. CloudFront only takes web ACLs
 * created in us-east-1 (scope CLOUDFRONT), so this construct refuses any other region.
 *
 * About 8 USD a month (web ACL 5 USD, three rules at 1 USD) plus 0.60 USD per million requests
 * (every request to the distribution, pages and files included). Both managed rule groups are
 * free of any subscription; together they use about 725 of the web ACL's 1,500 included
 * capacity units.
 */
export class WebFirewall extends Construct {
  public readonly webAcl: CfnWebACL;
  /** What the distribution's `webAclId` takes for a WAFv2 web ACL. */
  public readonly webAclArn: string;

  constructor(scope: Construct, id: string, props: WebFirewallProps = {}) {
    super(scope, id);
    const region = Stack.of(this).region;
    if (Token.isUnresolved(region) || region !== 'us-east-1') {
      throw new Error(`A CloudFront web ACL must be created in us-east-1; this stack's region is ${region}`);
    }
    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const managedRuleGroup = (
      name: string,
      priority: number,
      ruleActionOverrides: CfnWebACL.RuleActionOverrideProperty[] = [],
    ): CfnWebACL.RuleProperty => ({
      name: `AWS-${name}`,
      priority,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ...(ruleActionOverrides.length > 0 && { ruleActionOverrides }),
        },
      },
      visibilityConfig: visibility(name),
    });

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      description: 'The book site: IP reputation, a per-IP limit on the cheat-sheet API, common exploits.',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('First100DaysSite'),
      customResponseBodies: {
        rateLimited: { contentType: 'APPLICATION_JSON', content: JSON.stringify(rateLimitedBody) },
      },
      rules: [
        managedRuleGroup('AWSManagedRulesAmazonIpReputationList', 0),
        {
          name: 'ApiRequestsPerIp',
          priority: 1,
          action: {
            block: { customResponse: { responseCode: 429, customResponseBodyKey: 'rateLimited' } },
          },
          statement: {
            rateBasedStatement: {
              limit: props.apiRequestsPerFiveMinutes ?? 100,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'STARTS_WITH',
                  searchString: apiPathPrefix,
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
          visibilityConfig: visibility('ApiRequestsPerIp'),
        },
        managedRuleGroup(
          'AWSManagedRulesCommonRuleSet',
          2,
          commonRuleSetExclusions.map(({ rule }) => ({ name: rule, actionToUse: { count: {} } })),
        ),
      ],
    });
    this.webAclArn = this.webAcl.attrArn;
  }
}
