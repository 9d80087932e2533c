/**
 * The names and attributes CloudFormation would give each resource of a synthesized stack: a
 * given name as it is, a generated one as `<stack>-<logical id>` (shortened as CloudFormation
 * would), ARNs in the stage's account and region. Read by deployed-stacks.ts's resolver.
 */
import type { TemplateResource, Json } from '../cloudformation-template';

export const partition = 'aws';

/** What an attribute is read from: a resource already named. */
export interface NamedResource {
  readonly stack: { readonly region: string };
  readonly type: string;
  readonly ref: string;
  readonly arn?: string;
}

/** What a name depends on: the stack's name, account and region. */
export interface NamedStack {
  readonly name: string;
  readonly account: string;
  readonly region: string;
}

/** The service of an ARN for a resource type (`AWS::SNS::Topic` → `sns`). */
function serviceOf(type: string): string {
  return type.split('::')[1]?.toLowerCase() ?? 'unknown';
}

/** What CloudFormation names a resource given no name: `<stack>-<logical id>`, shortened as it would be. */
function generatedName(stack: NamedStack, logicalId: string, maxLength = 64): string {
  return `${stack.name}-${logicalId}`.slice(0, maxLength);
}

export function physicalNames(
  stack: NamedStack,
  logicalId: string,
  resource: TemplateResource,
): { ref: string; arn?: string; attributes?: Record<string, string> } {
  const properties = (resource.Properties ?? {}) as Record<string, Json>;
  const given = (key: string) => (typeof properties[key] === 'string' ? properties[key] : undefined);
  const { account, region } = stack;
  const arnPrefix = (service: string) => `arn:${partition}:${service}:${region}:${account}`;
  switch (resource.Type) {
    case 'AWS::IAM::Role': {
      const name = given('RoleName') ?? generatedName(stack, logicalId);
      return { ref: name, arn: `arn:${partition}:iam::${account}:role${given('Path') ?? '/'}${name}` };
    }
    case 'AWS::IAM::OIDCProvider': {
      const url = (given('Url') ?? '').replace(/^https:\/\//, '');
      const arn = `arn:${partition}:iam::${account}:oidc-provider/${url}`;
      return { ref: arn, arn };
    }
    case 'AWS::KMS::Key':
      return { ref: logicalId, arn: `${arnPrefix('kms')}:key/${logicalId}` };
    case 'AWS::SNS::Topic': {
      const arn = `${arnPrefix('sns')}:${given('TopicName') ?? generatedName(stack, logicalId, 256)}`;
      return { ref: arn, arn };
    }
    case 'AWS::SQS::Queue': {
      const name = given('QueueName') ?? generatedName(stack, logicalId, 80);
      return { ref: `https://sqs.${region}.amazonaws.com/${account}/${name}`, arn: `${arnPrefix('sqs')}:${name}` };
    }
    case 'AWS::Lambda::Function': {
      const name = given('FunctionName') ?? generatedName(stack, logicalId);
      return { ref: name, arn: `${arnPrefix('lambda')}:function:${name}` };
    }
    case 'AWS::DynamoDB::Table': {
      const name = given('TableName') ?? generatedName(stack, logicalId, 255);
      return { ref: name, arn: `${arnPrefix('dynamodb')}:table/${name}` };
    }
    case 'AWS::S3::Bucket': {
      const name = given('BucketName') ?? generatedName(stack, logicalId, 63).toLowerCase();
      return { ref: name, arn: `arn:${partition}:s3:::${name}` };
    }
    case 'AWS::CloudWatch::Alarm': {
      const name = given('AlarmName') ?? generatedName(stack, logicalId, 255);
      return { ref: name, arn: `${arnPrefix('cloudwatch')}:alarm:${name}` };
    }
    case 'AWS::Events::Rule': {
      const name = given('Name') ?? generatedName(stack, logicalId);
      return { ref: name, arn: `${arnPrefix('events')}:rule/${name}` };
    }
    case 'AWS::Scheduler::Schedule': {
      const name = given('Name') ?? generatedName(stack, logicalId);
      return { ref: name, arn: `${arnPrefix('scheduler')}:schedule/${given('GroupName') ?? 'default'}/${name}` };
    }
    case 'AWS::Logs::LogGroup': {
      const name = given('LogGroupName') ?? generatedName(stack, logicalId, 512);
      return { ref: name, arn: `${arnPrefix('logs')}:log-group:${name}:*` };
    }
    case 'AWS::SecretsManager::Secret': {
      const name = given('Name') ?? generatedName(stack, logicalId);
      const arn = `${arnPrefix('secretsmanager')}:secret:${name}-AbCdEf`;
      return { ref: arn, arn };
    }
    case 'AWS::CloudFront::Distribution': {
      const id = `E${logicalId.replace(/[^A-Z0-9]/g, '').slice(0, 13)}`;
      return { ref: id, arn: `arn:${partition}:cloudfront::${account}:distribution/${id}` };
    }
    case 'AWS::ApiGatewayV2::Api': {
      const id = logicalId
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '')
        .slice(0, 10);
      return { ref: id, arn: `arn:${partition}:apigateway:${region}::/apis/${id}` };
    }
    case 'AWS::SES::ConfigurationSet': {
      const name = given('Name') ?? generatedName(stack, logicalId);
      return { ref: name, arn: `${arnPrefix('ses')}:configuration-set/${name}` };
    }
    case 'AWS::SES::EmailIdentity': {
      const name = given('EmailIdentity') ?? logicalId;
      return { ref: name, arn: `${arnPrefix('ses')}:identity/${name}` };
    }
    case 'AWS::WAFv2::WebACL': {
      const name = given('Name') ?? generatedName(stack, logicalId, 128);
      return {
        ref: `${name}|id|${given('Scope') ?? 'REGIONAL'}`,
        arn: `${arnPrefix('wafv2')}:global/webacl/${name}/id`,
      };
    }
    default:
      return { ref: logicalId, arn: `${arnPrefix(serviceOf(resource.Type))}:${logicalId}` };
  }
}

/** Attributes (`Fn::GetAtt`) by type; `Arn` and the name-like ones come from physicalNames. */
export function attributeOf(resource: NamedResource, attribute: string): string {
  const { stack, ref, arn } = resource;
  switch (attribute) {
    case 'Arn':
    case 'TopicArn':
      return arn ?? ref;
    case 'KeyId':
    case 'Name':
    case 'TopicName':
    case 'QueueName':
    case 'Id':
    case 'ApiId':
    case 'RoleId':
      return attribute === 'QueueName' ? (arn ?? ref).split(':').pop()! : ref;
    case 'QueueUrl':
      return ref;
    case 'DomainName':
      return resource.type === 'AWS::S3::Bucket' ? `${ref}.s3.amazonaws.com` : `${ref.toLowerCase()}.cloudfront.net`;
    case 'RegionalDomainName':
      return `${ref}.s3.${stack.region}.amazonaws.com`;
    case 'ApiEndpoint':
      return `https://${ref}.execute-api.${stack.region}.amazonaws.com`;
    case 'StreamArn':
      return `${arn}/stream/2026-01-01T00:00:00.000`;
    default:
      return `${ref}.${attribute}`;
  }
}
