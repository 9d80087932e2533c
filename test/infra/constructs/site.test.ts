import { FileSystem } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { hashedAssetsCacheControl, pagesCacheControl } from '../../../infra/cache-policy';
import { securityHeaders } from '../../../infra/security-headers';
import { siteInBareStack } from '../support/bare-stack';
import { fixtures, privateBucketHardening, resourceByPrefix } from '../support/synth';

const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d';

interface DistributionConfig {
  DefaultRootObject: string;
  CustomErrorResponses: unknown[];
  DefaultCacheBehavior: Record<string, unknown>;
  CacheBehaviors: Array<Record<string, unknown>>;
  Origins: Array<Record<string, unknown>>;
  Logging?: Record<string, unknown>;
  ViewerCertificate?: Record<string, unknown>;
  Aliases?: string[];
  IPV6Enabled?: boolean;
}

function distributionConfig(template: Template): DistributionConfig {
  const { resource } = resourceByPrefix(template, 'AWS::CloudFront::Distribution', 'SiteDistribution');
  return resource.Properties.DistributionConfig as DistributionConfig;
}

// CloudFront's managed policies, by the IDs AWS publishes.
const managedPolicyIds = {
  cachingOptimized: '658327ea-f89d-4fab-a63d-7e88639e58f6',
  cachingDisabled: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
};

describe('the site construct', () => {
  let template: Template;
  beforeAll(() => {
    ({ template } = siteInBareStack());
  });

  test('maps only 404 to /404.html with status 404, so no API reply is ever rewritten', () => {
    const config = distributionConfig(template);
    // Exactly one rule: 403 (and every 4xx/5xx the API returns as JSON) passes through.
    expect(config.CustomErrorResponses).toEqual([
      { ErrorCode: 404, ResponseCode: 404, ResponsePagePath: '/404.html', ErrorCachingMinTTL: 60 },
    ]);
  });

  test('lets CloudFront list the site bucket, so a missing page is a 404 from S3 rather than a 403', () => {
    const policy = resourceByPrefix(template, 'AWS::S3::BucketPolicy', 'SiteBucketPolicy').resource;
    const statements = (policy.Properties.PolicyDocument as { Statement: Array<Record<string, unknown>> }).Statement;
    const cloudFrontStatement = statements.find(
      (statement) => JSON.stringify(statement.Principal) === JSON.stringify({ Service: 'cloudfront.amazonaws.com' }),
    );
    expect(cloudFrontStatement?.Action).toEqual(['s3:GetObject', 's3:ListBucket']);
  });

  test('serves index.html at / and redirects HTTP to HTTPS on the site', () => {
    const config = distributionConfig(template);
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: ['GET', 'HEAD'],
      CachePolicyId: managedPolicyIds.cachingOptimized,
    });
  });

  test('sends /api/* to the HTTP API uncached, with every method', () => {
    const config = distributionConfig(template);
    expect(config.CacheBehaviors).toHaveLength(1);
    const apiBehavior = config.CacheBehaviors[0];
    expect(apiBehavior).toMatchObject({
      PathPattern: '/api/*',
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachePolicyId: managedPolicyIds.cachingDisabled,
    });
    const apiOrigin = config.Origins.find((origin) => origin.Id === apiBehavior.TargetOriginId);
    expect(apiOrigin).toMatchObject({
      CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] },
      DomainName: {
        'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [expect.stringMatching(/^Api/), 'ApiEndpoint'] }] }],
      },
    });
  });

  test('forwards to the API the viewer address CloudFront saw, Content-Type, User-Agent, Sec-Fetch-Site, the Idempotency-Key, the proof of work and the canary mark: no other viewer header, no Host, no query string, no cookie', () => {
    const apiBehavior = distributionConfig(template).CacheBehaviors[0]!;
    const policy = resourceByPrefix(template, 'AWS::CloudFront::OriginRequestPolicy', 'SiteApiOriginRequests');

    expect(apiBehavior.OriginRequestPolicyId).toEqual({ Ref: policy.logicalId });
    expect(policy.resource.Properties.OriginRequestPolicyConfig).toMatchObject({
      HeadersConfig: {
        HeaderBehavior: 'whitelist',
        Headers: [
          'Content-Type',
          'User-Agent',
          'Sec-Fetch-Site',
          'Idempotency-Key',
          'X-Cheat-Sheet-Proof',
          'X-Canary-Mark',
          'CloudFront-Viewer-Address',
        ],
      },
      QueryStringsConfig: { QueryStringBehavior: 'none' },
      CookiesConfig: { CookieBehavior: 'none' },
    });
  });

  test('adds the origin secret to every API request, resolved from Secrets Manager at deploy time, never written in the template', () => {
    const config = distributionConfig(template);
    const apiOrigin = config.Origins.find((origin) => origin.Id === config.CacheBehaviors[0]!.TargetOriginId)!;
    const secret = resourceByPrefix(template, 'AWS::SecretsManager::Secret', 'OriginSecret');

    expect(apiOrigin.OriginCustomHeaders).toEqual([
      {
        HeaderName: 'x-origin-secret',
        HeaderValue: {
          'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secret.logicalId }, ':SecretString:::}}']],
        },
      },
    ]);
    expect(secret.resource.Properties.GenerateSecretString).toEqual({
      PasswordLength: 64,
      ExcludePunctuation: true,
      IncludeSpace: false,
    });
    expect(secret.resource.Properties).not.toHaveProperty('SecretString');
    // Only the API origin gets it: S3 has no use for it.
    const bucketOrigin = config.Origins.find((origin) => origin !== apiOrigin)!;
    expect(bucketOrigin).not.toHaveProperty('OriginCustomHeaders');
  });

  test('serves IPv4 only, so that the web ACL counts one client per address and no IPv6 /64 poses as many', () => {
    expect(distributionConfig(template).IPV6Enabled).toBe(false);
  });

  test('attaches no web ACL by default: no WAF resource and no WAF cost', () => {
    expect(distributionConfig(template)).not.toHaveProperty('WebACLId');
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
  });

  test('reaches the bucket only through Origin Access Control, for this distribution alone', () => {
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: {
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      },
    });
    const config = distributionConfig(template);
    const s3Origin = config.Origins.find((origin) => 'S3OriginConfig' in origin);
    expect(s3Origin).toMatchObject({
      OriginAccessControlId: { 'Fn::GetAtt': [expect.stringMatching(/OriginAccessControl/), 'Id'] },
      S3OriginConfig: { OriginAccessIdentity: '' },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: Match.stringLikeRegexp('^SiteBucket') },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Condition: {
              StringEquals: {
                'AWS:SourceArn': {
                  'Fn::Join': ['', Match.arrayWith([{ Ref: Match.stringLikeRegexp('^SiteDistribution') }])],
                },
              },
            },
          }),
        ]),
      },
    });
  });

  test('keeps the site bucket private: public access blocked, TLS only, SSE-S3 (the pages are public), versioned, logged, events to EventBridge', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      ...privateBucketHardening,
      LoggingConfiguration: {
        DestinationBucketName: { Ref: Match.stringLikeRegexp('^AccessLogsBucket') },
        LogFilePrefix: 's3/site/',
      },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: Match.stringLikeRegexp('^SiteBucket') },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  test('sends the security headers of infra/security-headers.ts, value for value', () => {
    const { resource } = resourceByPrefix(template, 'AWS::CloudFront::ResponseHeadersPolicy', 'SiteSecurityHeaders');
    const config = resource.Properties.ResponseHeadersPolicyConfig as {
      SecurityHeadersConfig: {
        ContentSecurityPolicy: { ContentSecurityPolicy: string; Override: boolean };
        StrictTransportSecurity: {
          AccessControlMaxAgeSec: number;
          IncludeSubdomains: boolean;
          Preload: boolean;
          Override: boolean;
        };
        ContentTypeOptions: { Override: boolean };
        FrameOptions: { FrameOption: string; Override: boolean };
        ReferrerPolicy: { ReferrerPolicy: string; Override: boolean };
      };
      CustomHeadersConfig: { Items: Array<{ Header: string; Value: string; Override: boolean }> };
    };
    const security = config.SecurityHeadersConfig;
    const hsts = security.StrictTransportSecurity;
    // The headers CloudFront will send, rebuilt from the policy, against the local server's.
    const sent: Record<string, string> = {
      'Content-Security-Policy': security.ContentSecurityPolicy.ContentSecurityPolicy,
      'Strict-Transport-Security': [
        `max-age=${hsts.AccessControlMaxAgeSec}`,
        ...(hsts.IncludeSubdomains ? ['includeSubDomains'] : []),
        ...(hsts.Preload ? ['preload'] : []),
      ].join('; '),
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': security.FrameOptions.FrameOption,
      'Referrer-Policy': security.ReferrerPolicy.ReferrerPolicy,
      ...Object.fromEntries(config.CustomHeadersConfig.Items.map((item) => [item.Header, item.Value])),
    };
    expect(sent).toEqual(securityHeaders);
    const overrides = [
      security.ContentSecurityPolicy,
      hsts,
      security.ContentTypeOptions,
      security.FrameOptions,
      security.ReferrerPolicy,
      ...config.CustomHeadersConfig.Items,
    ].map((header) => header.Override);
    expect(overrides.every(Boolean)).toBe(true);
  });

  test('puts the security headers on both the site and the API behaviours', () => {
    const config = distributionConfig(template);
    const policyRef = { Ref: expect.stringMatching(/^SiteSecurityHeaders/) };
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual(policyRef);
    expect(config.CacheBehaviors[0].ResponseHeadersPolicyId).toEqual(policyRef);
  });

  test('logs every request to the access-log bucket', () => {
    expect(distributionConfig(template).Logging).toEqual({
      Bucket: { 'Fn::GetAtt': [expect.stringMatching(/^AccessLogsBucket/), 'RegionalDomainName'] },
      Prefix: 'cloudfront/',
    });
  });

  test('deploys hashed assets with a year of immutable caching and keeps old ones for open pages', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: { Ref: Match.stringLikeRegexp('^SiteBucket') },
      Exclude: ['*'],
      Include: ['assets/*'],
      SystemMetadata: { 'cache-control': hashedAssetsCacheControl },
      Prune: false,
    });
    expect(hashedAssetsCacheControl).toBe('public, max-age=31536000, immutable');
  });

  test('deploys the pages with no-cache after the assets', () => {
    const pages = resourceByPrefix(template, 'Custom::CDKBucketDeployment', 'SitePagesDeployment').resource;
    const assets = resourceByPrefix(template, 'Custom::CDKBucketDeployment', 'SiteHashedAssetsDeployment');
    expect(pages.Properties).toMatchObject({
      Exclude: ['assets/*'],
      SystemMetadata: { 'cache-control': pagesCacheControl },
      Prune: true,
    });
    // The invalidation is its own resource, so the deployment handler needs no CloudFront rights.
    expect(pages.Properties.DistributionId).toBeUndefined();
    expect(pagesCacheControl).toBe('no-cache');
    expect(pages.DependsOn).toContain(assets.logicalId);
  });

  test('invalidates the whole distribution once the pages are deployed, again whenever the build changes', () => {
    const invalidation = resourceByPrefix(template, 'Custom::DistributionInvalidation', 'SiteInvalidation').resource;
    const pages = resourceByPrefix(template, 'Custom::CDKBucketDeployment', 'SitePagesDeployment');
    expect(invalidation.DependsOn).toContain(pages.logicalId);
    const distributionRef = { Ref: expect.stringMatching(/^SiteDistribution/) };
    for (const phase of ['Create', 'Update']) {
      const [, parts] = (invalidation.Properties[phase] as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
      expect(parts[1]).toEqual(distributionRef);
      const call = JSON.parse(
        (parts as unknown[]).map((part) => (typeof part === 'string' ? part : 'DISTRIBUTION')).join(''),
      );
      expect(call).toMatchObject({
        service: 'CloudFront',
        action: 'createInvalidation',
        parameters: {
          DistributionId: 'DISTRIBUTION',
          InvalidationBatch: {
            CallerReference: FileSystem.fingerprint(fixtures.siteDirectory),
            Paths: { Quantity: 1, Items: ['/*'] },
          },
        },
      });
    }
  });

  test('lets the invalidation handler invalidate this distribution alone, and write its logs, nothing else', () => {
    const role = resourceByPrefix(template, 'AWS::IAM::Role', 'SiteInvalidationHandlerRole');
    expect(role.resource.Properties.ManagedPolicyArns).toBeUndefined();
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: role.logicalId }]))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
    const logs = resourceByPrefix(template, 'AWS::Logs::LogGroup', 'SiteInvalidationHandlerLogs');
    expect(statements).toEqual(
      expect.arrayContaining([
        {
          Effect: 'Allow',
          Action: 'cloudfront:CreateInvalidation',
          Resource: {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':cloudfront::',
                { Ref: 'AWS::AccountId' },
                ':distribution/',
                { Ref: expect.stringMatching(/^SiteDistribution/) },
              ],
            ],
          },
        },
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [logs.logicalId, 'Arn'] },
        },
      ]),
    );
    expect(statements).toHaveLength(2);
    expect(logs.resource.Properties).toMatchObject({
      RetentionInDays: 365,
      KmsKeyId: { 'Fn::GetAtt': [expect.stringMatching(/^LeadsKey/), 'Arn'] },
    });
  });

  test('uses the default certificate when no custom domain is given', () => {
    const config = distributionConfig(template);
    expect(config.Aliases).toBeUndefined();
    expect(config.ViewerCertificate).toBeUndefined();
  });

  test('serves a custom domain with its certificate, SNI and TLS 1.2_2021 at least', () => {
    const { site, template: customTemplate } = siteInBareStack({
      props: { customDomain: { domainName: 'www.example.com', certificateArn } },
    });
    const config = distributionConfig(customTemplate);
    expect(config.Aliases).toEqual(['www.example.com']);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: certificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(site.url).toBe('https://www.example.com');
  });

  test('refuses to synthesize without a built site, saying to run npm run build', () => {
    expect(() => siteInBareStack({ props: { siteDirectory: '/nonexistent/frontend/dist' } })).toThrow(
      'The built site has no index.html in /nonexistent/frontend/dist: run `npm run build` first.',
    );
  });
});

describe("the site's CloudFront names, unique per account", () => {
  // CloudFront keeps these names per account: each carries the stack name and the region.
  const namedResources = [
    ['AWS::CloudFront::ResponseHeadersPolicy', 'ResponseHeadersPolicyConfig', 'security-headers'],
    ['AWS::CloudFront::OriginRequestPolicy', 'OriginRequestPolicyConfig', 'api-origin-requests'],
    ['AWS::CloudFront::OriginAccessControl', 'OriginAccessControlConfig', 'site-bucket'],
    ['AWS::CloudFront::Function', undefined, 'page-paths'],
  ] as const;

  function namesOf(template: Template): Record<string, unknown> {
    return Object.fromEntries(
      namedResources.map(([type, configKey]) => {
        const resources = Object.values(template.findResources(type));
        expect(resources).toHaveLength(1);
        const properties = resources[0].Properties as Record<string, Record<string, unknown>>;
        return [type, configKey ? properties[configKey].Name : properties.Name];
      }),
    );
  }

  test('names each policy, the origin access control and the function after the stack and its literal region', () => {
    const { template } = siteInBareStack({ stackName: 'BookSite', env: { region: 'eu-west-2' } });
    expect(namesOf(template)).toEqual(
      Object.fromEntries(namedResources.map(([type, , purpose]) => [type, `BookSite-eu-west-2-${purpose}`])),
    );
  });

  test("names them after the deploy-time region (AWS::Region) in an environment-agnostic stack, as the product's is", () => {
    const { template } = siteInBareStack({ stackName: 'BookSite' });
    expect(namesOf(template)).toEqual(
      Object.fromEntries(
        namedResources.map(([type, , purpose]) => [
          type,
          { 'Fn::Join': ['', ['BookSite-', { Ref: 'AWS::Region' }, `-${purpose}`]] },
        ]),
      ),
    );
  });
});
