/** The audit report's rows for what moves data: functions, the distribution, the API, the SES configuration set. */
import type { DataDescriber } from './audit-data-row';
import { roleGrants, type RoleProperties } from './audit-iam-section';
import {
  asList,
  deletion,
  propertiesOf,
  referencedIds,
  renderValue,
  resourcesOfType,
  type Json,
} from './cloudformation-template';

interface FunctionProperties {
  Runtime: string;
  KmsKeyArn: Json;
  LoggingConfig: { LogGroup?: Json };
  TracingConfig: { Mode?: string };
}

interface PermissionProperties {
  Principal: Json;
  SourceAccount: Json;
  SourceArn: Json;
}

export const describeFunction: DataDescriber = (view, id, resource) => {
  const props = propertiesOf<FunctionProperties>(resource);
  const permissions = Object.values(view.resources)
    .filter(
      (candidate) =>
        candidate.Type === 'AWS::Lambda::Permission' && referencedIds(candidate.Properties?.FunctionName).includes(id),
    )
    .map((permission) => propertiesOf<PermissionProperties>(permission));
  const invokers = [
    ...new Set(
      permissions.map(
        (permission) =>
          `${renderValue(permission.Principal)}${permission.SourceAccount ? ` (account ${renderValue(permission.SourceAccount)})` : ''}${permission.SourceArn ? ` from ${renderValue(permission.SourceArn)}` : ''}`,
      ),
    ),
  ];
  return {
    type: `Lambda function (${props.Runtime ?? ''})`,
    encryption: props.KmsKeyArn
      ? `environment: KMS, ${renderValue(props.KmsKeyArn)}`
      : 'environment: AWS managed key aws/lambda',
    logging: [
      props.LoggingConfig?.LogGroup
        ? `logs → ${renderValue(props.LoggingConfig.LogGroup)}`
        : 'logs → default log group',
      props.TracingConfig?.Mode === 'Active' ? 'X-Ray active tracing' : '',
    ]
      .filter(Boolean)
      .join('; '),
    retention: `holds no data between invocations; ${deletion(resource)}`,
    exposure:
      invokers.length > 0
        ? `may be invoked by ${invokers.join('; ')}`
        : 'no resource policy: invoked only by CloudFormation or this account',
  };
};

interface CacheBehavior {
  PathPattern?: string;
  ViewerProtocolPolicy?: string;
}

interface Origin {
  Id: string;
  CustomOriginConfig?: { OriginProtocolPolicy: string; OriginSSLProtocols?: string | readonly string[] };
  S3OriginConfig?: Json;
}

interface DistributionProperties {
  DistributionConfig: {
    DefaultCacheBehavior?: CacheBehavior;
    CacheBehaviors?: readonly CacheBehavior[];
    Origins?: readonly Origin[];
    ViewerCertificate?: { MinimumProtocolVersion?: string };
    Logging?: { Bucket: Json; Prefix?: string };
    WebACLId?: Json;
  };
}

export const describeDistribution: DataDescriber = (_view, _id, resource) => {
  const config = propertiesOf<DistributionProperties>(resource).DistributionConfig ?? {};
  const behaviours = [config.DefaultCacheBehavior, ...(config.CacheBehaviors ?? [])].filter(
    (behaviour): behaviour is CacheBehavior => behaviour !== undefined,
  );
  const origins = config.Origins ?? [];
  return {
    type: 'CloudFront distribution',
    encryption: [
      `viewers: ${behaviours.map((b) => `${b.PathPattern ?? 'default'} ${b.ViewerProtocolPolicy}`).join(', ')}`,
      `minimum TLS ${config.ViewerCertificate?.MinimumProtocolVersion ?? "TLSv1 (CloudFront's default certificate)"}`,
      ...origins.flatMap((origin) =>
        origin.CustomOriginConfig
          ? [
              `to origin ${origin.Id}: ${origin.CustomOriginConfig.OriginProtocolPolicy}, ${asList(origin.CustomOriginConfig.OriginSSLProtocols).join(', ')}`,
            ]
          : [],
      ),
    ].join('; '),
    logging: config.Logging
      ? `standard logs → ${renderValue(config.Logging.Bucket)}, prefix \`${config.Logging.Prefix ?? ''}\``
      : 'no standard logs',
    retention: `caches copies at the edge; ${deletion(resource)}`,
    exposure: [
      'public: serves anyone on the internet',
      config.WebACLId ? `AWS WAF web ACL ${renderValue(config.WebACLId)}` : 'no AWS WAF web ACL',
      ...origins
        .filter((origin) => origin.S3OriginConfig)
        .map((origin) => `S3 origin ${origin.Id} through origin access control`),
    ].join('; '),
  };
};

interface StageProperties {
  StageName: string;
  AccessLogSettings?: { Format: string; DestinationArn: Json };
  DefaultRouteSettings?: { ThrottlingRateLimit?: number; ThrottlingBurstLimit?: number };
}

interface RouteProperties {
  RouteKey: string;
  AuthorizationType?: string;
}

/** The log line's field names, from the stage's JSON access-log format. */
function accessLogFields(format: string): string {
  try {
    return Object.keys(JSON.parse(format) as object).join(', ');
  } catch {
    return 'custom format';
  }
}

export const describeHttpApi: DataDescriber = (view, id, resource) => {
  const related = <T extends object>(type: string) =>
    Object.values(view.resources)
      .filter((candidate) => candidate.Type === type && referencedIds(candidate.Properties?.ApiId).includes(id))
      .map((candidate) => propertiesOf<T>(candidate));
  const stages = related<StageProperties>('AWS::ApiGatewayV2::Stage');
  const routes = related<RouteProperties>('AWS::ApiGatewayV2::Route');
  return {
    type: `API Gateway ${renderValue(propertiesOf<{ ProtocolType: string }>(resource).ProtocolType ?? '')} API`,
    encryption: 'HTTPS only (API Gateway)',
    logging: stages
      .map((stage) => {
        const settings = stage.AccessLogSettings;
        if (!settings) return `stage ${stage.StageName}: no access logs`;
        return `stage ${stage.StageName}: access logs → ${renderValue(settings.DestinationArn)} (${accessLogFields(settings.Format)})`;
      })
      .join('; '),
    retention: `holds no data; ${deletion(resource)}`,
    exposure: [
      'public endpoint',
      ...stages.map((stage) => {
        const limits = stage.DefaultRouteSettings ?? {};
        return `stage ${stage.StageName} throttled at ${limits.ThrottlingRateLimit ?? '–'} requests a second (burst ${limits.ThrottlingBurstLimit ?? '–'})`;
      }),
      `routes: ${routes.map((route) => `${route.RouteKey} (authorization ${route.AuthorizationType ?? 'NONE'})`).join(', ')}`,
    ].join('; '),
  };
};

interface ConfigurationSetProperties {
  DeliveryOptions: { TlsPolicy?: string };
  SuppressionOptions: { SuppressedReasons?: string | readonly string[] };
  ReputationOptions: { ReputationMetricsEnabled?: boolean };
}

export const describeConfigurationSet: DataDescriber = (view, id, resource) => {
  const props = propertiesOf<ConfigurationSetProperties>(resource);
  const destinations = Object.values(view.resources)
    .filter(
      (candidate) =>
        candidate.Type === 'AWS::SES::ConfigurationSetEventDestination' &&
        referencedIds(candidate.Properties?.ConfigurationSetName).includes(id),
    )
    .map((destination) =>
      propertiesOf<{
        EventDestination: {
          MatchingEventTypes?: string | readonly string[];
          EventBridgeDestination?: Json;
          CloudWatchDestination?: Json;
          SnsDestination?: Json;
        };
      }>(destination),
    );
  const destinationName = (destination: (typeof destinations)[number]['EventDestination']) =>
    destination?.EventBridgeDestination
      ? "EventBridge's default bus"
      : destination?.CloudWatchDestination
        ? 'CloudWatch metrics'
        : destination?.SnsDestination
          ? 'SNS'
          : 'an unknown destination';
  const tls = props.DeliveryOptions?.TlsPolicy ?? 'OPTIONAL';
  // Who may send through this set, from the roles' own grants (every stack's roles live in this view).
  const senders = resourcesOfType(view, 'AWS::IAM::Role')
    .filter(([roleId, role]) =>
      roleGrants(view, roleId, propertiesOf<RoleProperties>(role)).some(
        (grant) =>
          grant.effect === 'Allow' &&
          /^(\*|ses:\*|ses:Send\w*)$/.test(grant.action) &&
          grant.resources.some((resource) => resource === '*' || resource.includes(`<${id}>`)),
      ),
    )
    .map(([roleId]) => `\`${roleId}\``);
  return {
    type: 'SES configuration set',
    encryption:
      tls === 'REQUIRE'
        ? "TLS to the recipient's server: REQUIRE (a server that offers none gets no message: a bounce, never clear text)"
        : `TLS to the recipient's server: ${tls} (sent in clear to a server that offers none)`,
    logging: destinations
      .map(
        (destination) =>
          `${asList(destination.EventDestination?.MatchingEventTypes).join(', ')} → ${destinationName(destination.EventDestination)}`,
      )
      .join('; '),
    retention: [
      props.SuppressionOptions
        ? `suppression list: ${asList(props.SuppressionOptions.SuppressedReasons).join(', ')}`
        : '',
      props.ReputationOptions?.ReputationMetricsEnabled ? 'reputation metrics' : '',
      deletion(resource),
    ]
      .filter(Boolean)
      .join('; '),
    exposure: `sends what these roles may send through it (ses:SendEmail on this set): ${senders.join(', ') || 'none'}`,
  };
};

/** What moves data, by resource type, in the order the report lists them. */
export const flowDescribers: Readonly<Record<string, DataDescriber>> = {
  'AWS::Lambda::Function': describeFunction,
  'AWS::CloudFront::Distribution': describeDistribution,
  'AWS::ApiGatewayV2::Api': describeHttpApi,
  'AWS::SES::ConfigurationSet': describeConfigurationSet,
};
