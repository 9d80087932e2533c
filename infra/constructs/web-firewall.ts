import { Stack, Token } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { apiPathPrefix } from '../../core/api/routes';
import { productRouteList, type RouteThrottle } from '../../core/api/catalogue/routes';

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
    // answers anything larger with its own JSON 413 (lambdas/http/http-request.ts).
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

/**
 * The window the per-client rule counts over: WAF takes 60, 120, 300 or 600 s; the shortest
 * blocks a flood soonest and lets a blocked office go again soonest.
 */
export const apiRateWindowSeconds = 60;

/** The lowest limit a WAF rate-based rule takes. */
export const minimumWafRateLimit = 10;

/**
 * The share of the smallest route throttle one client of the site may use: a quarter, so it takes
 * four clients at their limit to use up the smallest route's rate, and readers keep the rest.
 */
export const clientShareOfSmallestThrottle = 1 / 4;

/**
 * Requests one client (one IP address) may send to `/api/*` per window: a quarter of the smallest
 * route throttle's rate, over the window. With the default throttles (the form route at 2 a
 * second) that is 0.5 a second, 30 a minute: one form submission is two requests (save, send), so
 * 15 submissions a minute from one address, far above a person or an office behind one address.
 * The rule counts `/api/*` as a whole, so a client's share of any one route is at most this too.
 */
export function apiRequestsPerClient(
  throttles: readonly RouteThrottle[] = productRouteList.map(({ throttle }) => throttle),
  windowSeconds = apiRateWindowSeconds,
): number {
  const smallestRate = Math.min(...throttles.map(({ rateLimit }) => rateLimit));
  const limit = Math.floor(smallestRate * clientShareOfSmallestThrottle * windowSeconds);
  if (limit < minimumWafRateLimit) {
    throw new Error(
      `A quarter of the smallest route throttle (${smallestRate}/s) over ${windowSeconds} s is ${limit} requests, below WAF's minimum of ${minimumWafRateLimit}: raise the throttle or the window.`,
    );
  }
  return limit;
}

export interface WebFirewallProps {
  /**
   * Requests one IP address may send to `/api/*` per `apiRateWindowSeconds` before the rest are
   * refused (429).
   *
   * @default apiRequestsPerClient(): a quarter of the smallest route throttle, 30 a minute
   */
  readonly apiRequestsPerWindow?: number;
}

/** The JSON a rate-limited `/api/*` request gets: both routes' error shape, so the page shows it. */
export const rateLimitedBody = {
  success: false,
  error: 'Too many requests from your network. Please wait a few minutes and try again.',
} as const;

/**
 * The AWS WAF web ACL of the CloudFront distribution, on by default (`-c waf=false` leaves it
 * out): AWS's IP reputation list first, then a per-IP rate limit on `/api/*`, then AWS's Core
 * rule set. CloudFront only takes web ACLs created in us-east-1 (scope CLOUDFRONT), so this
 * construct refuses any other region.
 *
 * The rate rule aggregates on the viewer's IP address (`AggregateKeyType: IP`): WAF has no
 * aggregation on an IPv6 prefix, so each IPv6 address, not each /64, is a client here (the
 * functions' own client caps count per /64).
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
              limit: props.apiRequestsPerWindow ?? apiRequestsPerClient(),
              evaluationWindowSec: apiRateWindowSeconds,
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
