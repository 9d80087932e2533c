import { existsSync } from 'node:fs';
import path from 'node:path';
import { Annotations, Duration, Fn, Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AccessLevel,
  AllowedMethods,
  CachePolicy,
  type CfnDistribution,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  type IOriginRequestPolicy,
  OriginProtocolPolicy,
  OriginSslPolicy,
  PriceClass,
  type ResponseHeadersPolicy,
  S3OriginAccessControl,
  SecurityPolicyProtocol,
  Signing,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { BucketDeployment } from 'aws-cdk-lib/aws-s3-deployment';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { productRouteList } from '../../core/api/catalogue/routes';
import { buildOutput } from '../../core/build-output';
import { originSecretHeader } from '../../core/config/edge-headers';
import { sitePagesFunctionCode } from '../site-pages-function';
import type { DistributionInvalidation } from './distribution-invalidation';
import { PrivateBucket } from './private-bucket';
import { cloudFrontNameLimits, regionalName } from './regional-name';
import { apiOriginRequestPolicy, apiPathPattern, securityHeadersSetting } from './site-edge-policies';
import { deploySiteFiles } from './site-files';

export { apiOriginRequestHeaders, apiPathPattern } from './site-edge-policies';

/** The synth warning of a deployment without the web ACL (`-c waf=false`). */
export const noWebAclWarning = 'first100days:waf:off';
const throttleRates = productRouteList.map(({ throttle }) => throttle.rateLimit).join(', ');
export const noWebAclMessage = `No web ACL (-c waf=false): nothing limits one client's requests to /api/* before the route throttles that every reader shares (${throttleRates} a second), so a single client sending 10 a second makes every reader's save and send answer 429; AWS's IP reputation list and Core rule set screen no request. Drop waf=false (about 9 USD a month, docs/abuse.md) to protect the form.`;

export interface SiteProps {
  /** The API behind `/api/*`. */
  readonly api: IHttpApi;
  /**
   * Sent to the API with every request (header `x-origin-secret`), so the functions can tell a
   * request that came through this distribution from a direct call to the API.
   */
  readonly originSecret: ISecret;
  /**
   * ARN of an AWS WAF web ACL (scope CLOUDFRONT, in us-east-1) to attach.
   *
   * @default - no web ACL
   */
  readonly webAclArn?: string;
  /** Where the site bucket's S3 access logs and the distribution's logs go. */
  readonly accessLogsBucket: IBucket;
  /**
   * The leads' key (infra/constructs/leads-key.ts): the deployment and invalidation handlers' logs.
   * The site bucket uses SSE-S3 (private-bucket.ts): CloudFront reads it with no key grant.
   */
  readonly encryptionKey: IKey;
  /**
   * Serve the site under this host name with this ACM certificate (in us-east-1).
   *
   * @default - the distribution's own `*.cloudfront.net` name and certificate
   */
  readonly customDomain?: { readonly domainName: string; readonly certificateArn: string };
  /**
   * The built site (`npm run build:site`): the pages of core/site-pages.ts, 404.html, assets/
   * with hashed names.
   *
   * @default `frontend/dist` under the repository root (process.cwd())
   */
  readonly siteDirectory?: string;
  /**
   * Edge locations used.
   *
   * @default PriceClass.PRICE_CLASS_100 (North America and Europe), the cheapest
   */
  readonly priceClass?: PriceClass;
  /**
   * `free`: the distribution goes on CloudFront's flat-rate Free plan, which takes AWS managed
   * policies only: the security headers come from a viewer-response CloudFront Function instead of
   * a response headers policy, and the API's origin requests use the managed
   * AllViewerExceptHostHeader policy (the functions read only CloudFront-Viewer-Address, which
   * CloudFront sets itself, and the origin secret).
   *
   * @default - pay-as-you-go: the custom policies
   */
  readonly pricingPlan?: 'free';
}

/**
 * The site: a private bucket behind CloudFront (Origin Access Control), `/api/*` routed to the
 * HTTP API, security headers on every response, and the deployment of the built files.
 */
export class Site extends Construct {
  /** The built site; retained when the stack is deleted. */
  public readonly bucket: PrivateBucket;
  /**
   * The distribution's identity towards the site bucket. The CloudFront policies, this and the
   * function are named `<stack name>-<region>-<purpose>` (./regional-name.ts): CloudFront names
   * are unique per account, so the same stack in a second region must not reuse them.
   */
  public readonly originAccessControl: S3OriginAccessControl;
  /** Pay-as-you-go only (the Free plan takes managed policies only: securityHeadersFunction then). */
  public readonly responseHeadersPolicy?: ResponseHeadersPolicy;
  /** The Free plan only: the security headers, set on every response. */
  public readonly securityHeadersFunction?: CloudFrontFunction;
  /** What `/api/*` requests carry to the API: apiOriginRequestHeaders, no query string, no cookie. */
  public readonly apiOriginRequestPolicy: IOriginRequestPolicy;
  /** Viewer-request function of the site's behaviour: each page's path to its file (core/site-pages.ts). */
  public readonly pagePathsFunction: CloudFrontFunction;
  public readonly distribution: Distribution;
  /** Copies `assets/**` with long, immutable caching; runs first. */
  public readonly hashedAssetsDeployment: BucketDeployment;
  /** Copies everything else with no-cache, after the assets. */
  public readonly pagesDeployment: BucketDeployment;
  /** Invalidates the whole distribution after the pages are in the bucket. */
  public readonly invalidation: DistributionInvalidation;
  /** `https://` plus the custom domain, or the distribution's domain. */
  public readonly url: string;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    const siteDirectory = props.siteDirectory ?? path.join(process.cwd(), buildOutput.siteDirectory);
    for (const page of buildOutput.pages) {
      if (!existsSync(path.join(siteDirectory, page))) {
        throw new Error(`The built site has no ${page} in ${siteDirectory}: run \`npm run build\` first.`);
      }
    }

    this.bucket = new PrivateBucket(this, 'Bucket', {
      accessLogsBucket: props.accessLogsBucket,
      accessLogsPrefix: 's3/site/',
    });

    const freePlan = props.pricingPlan === 'free';
    const securityHeaders = securityHeadersSetting(this, freePlan);
    this.responseHeadersPolicy = securityHeaders.policy;
    this.securityHeadersFunction = securityHeaders.function;

    // The API's host name, from its endpoint `https://<id>.execute-api.<region>.amazonaws.com`.
    const apiOrigin = new HttpOrigin(Fn.select(2, Fn.split('/', props.api.apiEndpoint)), {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      // Resolved by CloudFormation at deploy time ({{resolve:secretsmanager:…}}): the value is in
      // neither the repository nor the template. A viewer's header of the same name is replaced.
      customHeaders: { [originSecretHeader]: props.originSecret.secretValue.unsafeUnwrap() },
    });
    this.apiOriginRequestPolicy = apiOriginRequestPolicy(this, freePlan);

    // About $0.10 per million requests of the site's behaviour (pages, scripts, images); the API's
    // behaviour does not run it.
    this.pagePathsFunction = new CloudFrontFunction(this, 'PagePaths', {
      functionName: regionalName(this, 'page-paths', cloudFrontNameLimits.function),
      comment: 'Maps each pre-rendered page path to its file in the site bucket (core/site-pages.ts).',
      code: FunctionCode.fromInline(sitePagesFunctionCode()),
      runtime: FunctionRuntime.JS_2_0,
    });
    const securityHeadersAssociation = this.securityHeadersFunction
      ? [{ function: this.securityHeadersFunction, eventType: FunctionEventType.VIEWER_RESPONSE }]
      : [];

    this.originAccessControl = new S3OriginAccessControl(this, 'OriginAccessControl', {
      originAccessControlName: regionalName(this, 'site-bucket', cloudFrontNameLimits.originAccessControl),
      description: 'CloudFront signs every request to the site bucket (SigV4).',
      signing: Signing.SIGV4_ALWAYS,
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'First 100 Days: site and cheat-sheet API',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        // READ + LIST: with s3:ListBucket, S3 answers a missing key with 404 instead of 403,
        // which is what the not-found rule below keys on.
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket, {
          originAccessControl: this.originAccessControl,
          originAccessLevels: [AccessLevel.READ, AccessLevel.LIST],
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeadersPolicy,
        compress: true,
        functionAssociations: [
          { function: this.pagePathsFunction, eventType: FunctionEventType.VIEWER_REQUEST },
          ...securityHeadersAssociation,
        ],
      },
      additionalBehaviors: {
        [apiPathPattern]: {
          origin: apiOrigin,
          // A POST redirected from http:// would arrive as a GET: refuse plain HTTP instead.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: this.apiOriginRequestPolicy,
          responseHeadersPolicy: this.responseHeadersPolicy,
          functionAssociations: securityHeadersAssociation,
        },
      },
      // The not-found rule. Custom error responses apply to every behaviour, `/api/*` included,
      // so only 404 is mapped: an unknown site path is a missing key, which S3 answers 404
      // (the LIST grant above), and the API routes never answer 404 (docs/openapi.yaml), so their
      // replies (JSON 400, 429, 500..., the form route's 303 and 4xx pages) pass through untouched. Mapping 403 as well, the
      // usual SPA recipe, would hide API errors and is deliberately absent.
      errorResponses: [
        {
          httpStatus: 404,
          responseHttpStatus: 404,
          responsePagePath: '/404.html',
          ttl: Duration.minutes(1),
        },
      ],
      enableLogging: true,
      logBucket: props.accessLogsBucket,
      logFilePrefix: 'cloudfront/',
      httpVersion: HttpVersion.HTTP2_AND_3,
      // IPv4 only: the web ACL's rate rules count per IP address and WAF cannot count per IPv6
      // prefix, so over IPv6 one /64 (2^64 addresses, one household's) would be as many clients.
      // Readers on IPv6-only networks still reach the site through their network's NAT64 (the
      // mobile networks that are IPv6-only run it), as they reach every IPv4-only site.
      enableIpv6: false,
      webAclId: props.webAclArn,
      priceClass: props.priceClass ?? PriceClass.PRICE_CLASS_100,
      ...(props.customDomain && {
        domainNames: [props.customDomain.domainName],
        certificate: Certificate.fromCertificateArn(this, 'Certificate', props.customDomain.certificateArn),
        minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      }),
    });
    this.url = `https://${props.customDomain?.domainName ?? this.distribution.distributionDomainName}`;

    // Acknowledged on the CloudFormation resource itself, not on the distribution's children.
    const distributionResource = this.distribution.node.defaultChild as CfnDistribution;
    if (!props.customDomain) {
      Validations.of(distributionResource).acknowledge({
        id: 'AwsSolutions::AwsSolutions-CFR4',
        reason:
          'No custom domain was given (-c domainName/-c certificateArn), so the distribution uses the default *.cloudfront.net certificate, whose security policy CloudFront fixes at TLSv1; with a custom domain the stack sets TLSv1.2_2021 and this finding does not arise.',
      });
    }
    Annotations.of(this.distribution).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
      's3:ListBucket cannot expose a listing: `/` is served by defaultRootObject index.html and the S3 behaviour forwards no query string (CACHING_OPTIMIZED), so no request reaches the bucket as a list call.',
    );
    Validations.of(distributionResource).acknowledge({
      id: 'AwsSolutions::AwsSolutions-CFR1',
      reason:
        'The site is a public book-marketing page meant for readers in every country; there is no legal or licensing reason to restrict it geographically.',
    });
    if (!props.webAclArn) {
      Validations.of(distributionResource).acknowledge({
        id: 'AwsSolutions::AwsSolutions-CFR2',
        reason:
          'The web ACL is on by default and was turned off (-c waf=false), which the synth warns about (first100days:waf:off): the three POST routes are then bounded only by the route throttles, the per-address daily cap, the per-client and per-network hourly limits and the daily send budget in the functions.',
      });
      Annotations.of(this).addWarningV2(noWebAclWarning, noWebAclMessage);
    }

    ({
      hashedAssetsDeployment: this.hashedAssetsDeployment,
      pagesDeployment: this.pagesDeployment,
      invalidation: this.invalidation,
    } = deploySiteFiles(this, {
      siteDirectory,
      bucket: this.bucket,
      distribution: this.distribution,
      encryptionKey: props.encryptionKey,
    }));
  }
}
