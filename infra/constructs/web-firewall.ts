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

/**
 * The window the site's rule counts over: five minutes, WAF's longest but one. A page view's
 * requests come at once (a cold view of `/` is about a dozen: the page, its stylesheet, the
 * loader, the island, the font, the images and icons), so a longer window lets such a burst
 * through and still bounds a steady flood.
 */
export const siteRateWindowSeconds = 300;

/**
 * Requests one IP address may send to the site's own files (every path but `/api/*`) per
 * `siteRateWindowSeconds`: 600, 2 a second on average. A cold view of `/` is about a dozen
 * requests and a warm one (the hashed assets cached for a year) one or two, so this is 50 cold
 * page views in five minutes behind one address (an office, a café), far above one reader; a
 * flood from one address is held to 2 files a second.
 */
export const siteRequestsPerClient = 600;

export interface WebFirewallProps {
  /**
   * Requests one IP address may send to `/api/*` per `apiRateWindowSeconds` before the rest are
   * refused (429).
   *
   * @default apiRequestsPerClient(): a quarter of the smallest route throttle, 30 a minute
   */
  readonly apiRequestsPerWindow?: number;
  /**
   * Requests one IP address may send to the site's files (every path but `/api/*`) per
   * `siteRateWindowSeconds` before the rest are refused (429).
   *
   * @default siteRequestsPerClient: 600 in five minutes
   */
  readonly siteRequestsPerWindow?: number;
}

/** The JSON a rate-limited `/api/*` request gets: both routes' error shape, so the page shows it. */
export const rateLimitedBody = {
  success: false,
  error: 'Too many requests from your network. Please wait a few minutes and try again.',
} as const;

/**
 * The AWS WAF web ACL of the CloudFront distribution, on by default (`-c waf=false` leaves it
 * out): AWS's IP reputation list first, then a per-IP rate limit on `/api/*`, then one on every
 * other path (the site's files), then AWS's Core rule set. CloudFront only takes web ACLs created
 * in us-east-1 (scope CLOUDFRONT), so this construct refuses any other region.
 *
 * The rate rules aggregate on the viewer's IP address (`AggregateKeyType: IP`). WAF has no
 * aggregation on an IPv6 prefix, so the distribution serves IPv4 only (infra/constructs/site.ts):
 * one client is one IPv4 address, and a /64 of IPv6 addresses cannot pose as many.
 *
 * About 9 USD a month (web ACL 5 USD, four rules at 1 USD) plus 0.60 USD per million requests
 * (every request to the distribution, pages and files included). Both managed rule groups are
 * free of any subscription; together they use about 730 of the web ACL's 1,500 included
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

    const apiPaths: CfnWebACL.StatementProperty = {
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'STARTS_WITH',
        searchString: apiPathPrefix,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    };
    const refusedWith429 = (customResponseBodyKey: string) => ({
      block: { customResponse: { responseCode: 429, customResponseBodyKey } },
    });

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      description:
        'The book site: IP reputation, per-IP limits on the cheat-sheet API and on the pages and files, common exploits.',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('First100DaysSite'),
      customResponseBodies: {
        rateLimited: { contentType: 'APPLICATION_JSON', content: JSON.stringify(rateLimitedBody) },
        siteRateLimited: { contentType: 'TEXT_PLAIN', content: rateLimitedBody.error },
      },
      rules: [
        managedRuleGroup('AWSManagedRulesAmazonIpReputationList', 0),
        {
          name: 'ApiRequestsPerIp',
          priority: 1,
          action: refusedWith429('rateLimited'),
          statement: {
            rateBasedStatement: {
              limit: props.apiRequestsPerWindow ?? apiRequestsPerClient(),
              evaluationWindowSec: apiRateWindowSeconds,
              aggregateKeyType: 'IP',
              scopeDownStatement: apiPaths,
            },
          },
          visibilityConfig: visibility('ApiRequestsPerIp'),
        },
        {
          // The site's GETs: every request the API rule does not count. CloudFront serves them
          // from its cache, so a flood costs requests and transfer rather than readers' throttle;
          // this bounds what one address can spend.
          name: 'SiteRequestsPerIp',
          priority: 2,
          action: refusedWith429('siteRateLimited'),
          statement: {
            rateBasedStatement: {
              limit: props.siteRequestsPerWindow ?? siteRequestsPerClient,
              evaluationWindowSec: siteRateWindowSeconds,
              aggregateKeyType: 'IP',
              scopeDownStatement: { notStatement: { statement: apiPaths } },
            },
          },
          visibilityConfig: visibility('SiteRequestsPerIp'),
        },
        managedRuleGroup(
          'AWSManagedRulesCommonRuleSet',
          3,
          commonRuleSetExclusions.map(({ rule }) => ({ name: rule, actionToUse: { count: {} } })),
        ),
      ],
    });
    this.webAclArn = this.webAcl.attrArn;
  }
}
