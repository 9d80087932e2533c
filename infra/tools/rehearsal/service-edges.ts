/**
 * Every service-to-service edge of the deployed stacks, as the request the service makes: its
 * service principal, the action, the resource and the `aws:SourceArn` and `aws:SourceAccount` it
 * sends. Read from the templates, so a new alarm, topic, rule, schedule, route, subscription,
 * queue, bucket origin or log group is judged without a line here.
 */
import type { DeployedResource, DeployedStack } from './deployed-stacks';
import { resourceByArn, resourcesOfType } from './deployed-stacks';
import type { Policies, Request } from './judge';
import { resourcePolicyOf, rolesOf } from './policies';

export interface Edge {
  /** What the edge is, for the report: `alarm X → topic Y`. */
  readonly description: string;
  readonly request: Request;
  readonly policies: Policies;
}

/** The edges of all the stacks, across stacks and regions. */
export function serviceEdges(stacks: readonly DeployedStack[]): Edge[] {
  return [
    ...alarmEdges(stacks),
    ...ruleEdges(stacks),
    ...scheduleEdges(stacks),
    ...subscriptionEdges(stacks),
    ...apiEdges(stacks),
    ...originAccessEdges(stacks),
    ...configurationSetEdges(stacks),
    ...functionRoleEdges(stacks),
    ...logGroupEdges(stacks),
  ];
}

function serviceRequest(
  principal: string,
  action: string,
  target: DeployedResource,
  source: { readonly arn: string; readonly account: string },
  extraContext: Record<string, string> = {},
  resource = target.arn!,
): Request {
  return {
    principal,
    action,
    resource,
    resourceAccount: target.stack.account,
    context: { 'aws:SourceArn': source.arn, 'aws:SourceAccount': source.account, ...extraContext },
  };
}

/** The customer managed key an encrypted topic, queue or bucket names, if it is one of the stacks'. */
function keyNamed(stacks: readonly DeployedStack[], keyArn: unknown): DeployedResource | undefined {
  if (typeof keyArn !== 'string') return undefined;
  const key = resourceByArn(stacks, keyArn);
  return key?.type === 'AWS::KMS::Key' ? key : undefined;
}

function edge(stacks: readonly DeployedStack[], description: string, request: Request, target: DeployedResource): Edge {
  return { description, request, policies: { identity: [], resource: resourcePolicyOf(stacks, target) } };
}

/** CloudWatch publishing an alarm's state to each topic it names, with the topic's key. */
function alarmEdges(stacks: readonly DeployedStack[]): Edge[] {
  return resourcesOfType(stacks, 'AWS::CloudWatch::Alarm').flatMap((alarm) => {
    const properties = alarm.properties as Record<string, string[] | undefined>;
    const actions = new Set([
      ...(properties.AlarmActions ?? []),
      ...(properties.OKActions ?? []),
      ...(properties.InsufficientDataActions ?? []),
    ]);
    const source = { arn: alarm.arn!, account: alarm.stack.account };
    return [...actions].flatMap((action) => {
      const topic = resourceByArn(stacks, action);
      if (topic?.type !== 'AWS::SNS::Topic') return [];
      const edges = [
        edge(
          stacks,
          `alarm ${alarm.ref} → topic ${topic.logicalId} (${topic.stack.name})`,
          serviceRequest('cloudwatch.amazonaws.com', 'sns:Publish', topic, source),
          topic,
        ),
      ];
      const key = keyNamed(stacks, (topic.properties as { KmsMasterKeyId?: string }).KmsMasterKeyId);
      if (key) {
        for (const kmsAction of ['kms:GenerateDataKey', 'kms:Decrypt']) {
          edges.push(
            edge(
              stacks,
              `alarm ${alarm.ref} → key ${key.logicalId} of topic ${topic.logicalId} (${kmsAction})`,
              serviceRequest('cloudwatch.amazonaws.com', kmsAction, key, source),
              key,
            ),
          );
        }
      }
      return edges;
    });
  });
}

/** EventBridge rules invoking their target functions (and sending to queues or topics). */
function ruleEdges(stacks: readonly DeployedStack[]): Edge[] {
  return resourcesOfType(stacks, 'AWS::Events::Rule').flatMap((rule) => {
    const targets = ((rule.properties as { Targets?: { Arn: string }[] }).Targets ?? []).map((target) => target.Arn);
    const source = { arn: rule.arn!, account: rule.stack.account };
    return targets.flatMap((arn) => targetEdges(stacks, 'events.amazonaws.com', `rule ${rule.logicalId}`, arn, source));
  });
}

function targetEdges(
  stacks: readonly DeployedStack[],
  principal: string,
  from: string,
  targetArn: string,
  source: { arn: string; account: string },
): Edge[] {
  const target = resourceByArn(stacks, targetArn);
  if (!target) return [];
  const action = {
    'AWS::Lambda::Function': 'lambda:InvokeFunction',
    'AWS::SQS::Queue': 'sqs:SendMessage',
    'AWS::SNS::Topic': 'sns:Publish',
  }[target.type];
  if (!action) return [];
  return [
    edge(
      stacks,
      `${from} → ${target.type.split('::')[2].toLowerCase()} ${target.logicalId}`,
      serviceRequest(principal, action, target, source),
      target,
    ),
  ];
}

/** EventBridge Scheduler: it assumes the schedule's role, which then invokes the target. */
function scheduleEdges(stacks: readonly DeployedStack[]): Edge[] {
  const roles = rolesOf(stacks);
  return resourcesOfType(stacks, 'AWS::Scheduler::Schedule').flatMap((schedule) => {
    const target = (schedule.properties as { Target?: { Arn: string; RoleArn: string } }).Target;
    const role = roles.find((candidate) => candidate.arn === target?.RoleArn);
    if (!target || !role) return [];
    const source = { arn: schedule.arn!, account: schedule.stack.account };
    const assume = edge(
      stacks,
      `schedule ${schedule.logicalId} → assumes role ${role.resource.logicalId}`,
      serviceRequest('scheduler.amazonaws.com', 'sts:AssumeRole', role.resource, source),
      role.resource,
    );
    const invoked = resourceByArn(stacks, target.Arn);
    const invoke: Edge[] = invoked
      ? [
          {
            description: `schedule ${schedule.logicalId}'s role → function ${invoked.logicalId}`,
            request: {
              principal: role.arn,
              action: 'lambda:InvokeFunction',
              resource: invoked.arn!,
              resourceAccount: invoked.stack.account,
            },
            policies: { identity: role.identityPolicies, resource: resourcePolicyOf(stacks, invoked) },
          },
        ]
      : [];
    return [assume, ...invoke];
  });
}

/** SNS delivering to subscribed functions and queues. */
function subscriptionEdges(stacks: readonly DeployedStack[]): Edge[] {
  return resourcesOfType(stacks, 'AWS::SNS::Subscription').flatMap((subscription) => {
    const { Protocol, Endpoint, TopicArn } = subscription.properties as Record<string, string>;
    if (Protocol !== 'lambda' && Protocol !== 'sqs') return [];
    const topic = resourceByArn(stacks, TopicArn);
    return targetEdges(stacks, 'sns.amazonaws.com', `topic ${topic?.logicalId ?? TopicArn}`, Endpoint, {
      arn: TopicArn,
      account: subscription.stack.account,
    });
  });
}

/** API Gateway (HTTP API) invoking each route's function, with the route's execute-api ARN. */
function apiEdges(stacks: readonly DeployedStack[]): Edge[] {
  const integrations = resourcesOfType(stacks, 'AWS::ApiGatewayV2::Integration');
  return resourcesOfType(stacks, 'AWS::ApiGatewayV2::Route').flatMap((route) => {
    const { ApiId, RouteKey, Target } = route.properties as Record<string, string>;
    const integrationId = /^integrations\/(.+)$/.exec(Target ?? '')?.[1];
    const integration = integrations.find(
      (candidate) => candidate.stack === route.stack && candidate.ref === integrationId,
    );
    const uri = (integration?.properties as { IntegrationUri?: string } | undefined)?.IntegrationUri;
    const target = uri ? resourceByArn(stacks, uri) : undefined;
    if (target?.type !== 'AWS::Lambda::Function') return [];
    const [method, routePath] = RouteKey.split(' ');
    const stages = resourcesOfType(stacks, 'AWS::ApiGatewayV2::Stage').filter(
      (stage) => (stage.properties as { ApiId?: string }).ApiId === ApiId,
    );
    return stages.map((stage) => {
      const stageName = (stage.properties as { StageName: string }).StageName;
      const sourceArn = `arn:aws:execute-api:${route.stack.region}:${route.stack.account}:${ApiId}/${stageName}/${method === 'ANY' ? 'GET' : method}${routePath}`;
      return edge(
        stacks,
        `API route ${RouteKey} → function ${target.logicalId}`,
        serviceRequest('apigateway.amazonaws.com', 'lambda:InvokeFunction', target, {
          arn: sourceArn,
          account: route.stack.account,
        }),
        target,
      );
    });
  });
}

/** CloudFront reading each S3 origin it reaches with origin access control, and the bucket's key. */
function originAccessEdges(stacks: readonly DeployedStack[]): Edge[] {
  const buckets = resourcesOfType(stacks, 'AWS::S3::Bucket');
  return resourcesOfType(stacks, 'AWS::CloudFront::Distribution').flatMap((distribution) => {
    const origins =
      (
        distribution.properties as {
          DistributionConfig?: { Origins?: { DomainName: string; OriginAccessControlId?: string }[] };
        }
      ).DistributionConfig?.Origins ?? [];
    const source = { arn: distribution.arn!, account: distribution.stack.account };
    return origins
      .filter((origin) => origin.OriginAccessControlId)
      .flatMap((origin) => {
        const bucket = buckets.find((candidate) => origin.DomainName.startsWith(`${candidate.ref}.s3.`));
        if (!bucket) return [];
        const edges = [
          edge(
            stacks,
            `distribution ${distribution.logicalId} → bucket ${bucket.logicalId}`,
            serviceRequest('cloudfront.amazonaws.com', 's3:GetObject', bucket, source, {}, `${bucket.arn}/index.html`),
            bucket,
          ),
        ];
        const encryption = (
          bucket.properties as {
            BucketEncryption?: {
              ServerSideEncryptionConfiguration?: { ServerSideEncryptionByDefault?: { KMSMasterKeyID?: string } }[];
            };
          }
        ).BucketEncryption;
        const key = keyNamed(
          stacks,
          encryption?.ServerSideEncryptionConfiguration?.[0]?.ServerSideEncryptionByDefault?.KMSMasterKeyID,
        );
        if (key) {
          edges.push(
            edge(
              stacks,
              `distribution ${distribution.logicalId} → key ${key.logicalId} of bucket ${bucket.logicalId}`,
              serviceRequest('cloudfront.amazonaws.com', 'kms:Decrypt', key, source),
              key,
            ),
          );
        }
        return edges;
      });
  });
}

/**
 * CloudWatch Logs encrypting each log group with its key, in the group's encryption context
 * (`kms:EncryptionContext:aws:logs:arn`, which judge.ts hands the evaluator under a key it reads).
 */
function logGroupEdges(stacks: readonly DeployedStack[]): Edge[] {
  return resourcesOfType(stacks, 'AWS::Logs::LogGroup').flatMap((logGroup) => {
    const key = keyNamed(stacks, (logGroup.properties as { KmsKeyId?: string }).KmsKeyId);
    if (!key) return [];
    const groupArn = logGroup.arn!.replace(/:\*$/, '');
    return ['kms:GenerateDataKey', 'kms:Decrypt'].map((action) => ({
      description: `CloudWatch Logs → key ${key.logicalId} of log group ${logGroup.logicalId} (${action})`,
      request: {
        principal: `logs.${logGroup.stack.region}.amazonaws.com`,
        action,
        resource: key.arn!,
        resourceAccount: key.stack.account,
        context: {
          'kms:EncryptionContext:aws:logs:arn': groupArn,
          'aws:SourceAccount': logGroup.stack.account,
          'aws:SourceArn': groupArn,
        },
      },
      policies: { identity: [], resource: resourcePolicyOf(stacks, key) },
    }));
  });
}

/** The SES configuration set's event destinations that deliver to a topic (SNS) need its policy. */
function configurationSetEdges(stacks: readonly DeployedStack[]): Edge[] {
  return resourcesOfType(stacks, 'AWS::SES::ConfigurationSetEventDestination').flatMap((destination) => {
    const { ConfigurationSetName, EventDestination } = destination.properties as {
      ConfigurationSetName: string;
      EventDestination: { SnsDestination?: { TopicARN: string }; EventBridgeDestination?: { EventBusArn: string } };
    };
    const source = {
      arn: `arn:aws:ses:${destination.stack.region}:${destination.stack.account}:configuration-set/${ConfigurationSetName}`,
      account: destination.stack.account,
    };
    const topic = EventDestination.SnsDestination && resourceByArn(stacks, EventDestination.SnsDestination.TopicARN);
    if (topic)
      return [
        edge(
          stacks,
          `configuration set ${ConfigurationSetName} → topic ${topic.logicalId}`,
          serviceRequest('ses.amazonaws.com', 'sns:Publish', topic, source),
          topic,
        ),
      ];
    return [];
  });
}

/** Lambda assuming each function's role (the role's trust policy). */
function functionRoleEdges(stacks: readonly DeployedStack[]): Edge[] {
  const roles = rolesOf(stacks);
  return resourcesOfType(stacks, 'AWS::Lambda::Function').flatMap((fn) => {
    const role = roles.find((candidate) => candidate.arn === (fn.properties as { Role?: string }).Role);
    if (!role) return [];
    return [
      {
        description: `Lambda → assumes role ${role.resource.logicalId} of function ${fn.logicalId}`,
        request: {
          principal: 'lambda.amazonaws.com',
          action: 'sts:AssumeRole',
          resource: role.arn,
          resourceAccount: role.resource.stack.account,
          context: { 'aws:SourceAccount': fn.stack.account, 'aws:SourceArn': fn.arn! },
        },
        policies: { identity: [], resource: role.trustPolicy },
      },
    ];
  });
}
