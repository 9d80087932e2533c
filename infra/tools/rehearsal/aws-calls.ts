/**
 * What IAM authorizes for one recorded AWS call (local/rehearsal/call-recorder.ts): the action,
 * the resource's ARN and the context that matters, read from the request as the service reads it
 * (DynamoDB and the other JSON protocols from `X-Amz-Target` and the body, S3 from the method,
 * path and query, SES v2 and Lambda from their paths, CloudFormation and STS from their query
 * forms), with the condition keys the service sends (`ses:Recipients` and `ses:FromAddress` for a
 * mail), plus the KMS calls the service makes in the caller's name
 * for data under a customer key (`kms:ViaService`): a table's reads and writes decrypt its table
 * key, an object read decrypts and a write generates a data key, a queue's messages likewise.
 * A call no rule reads is returned as unreadable, and the rehearsal fails on it: a call nobody
 * judged proves nothing. STS GetCallerIdentity is read as needing no permission: IAM authorizes
 * no action for it (AWS's STS reference: "No permissions are required to perform this operation",
 * and an explicit Deny of it does not stop it).
 */
import type { DeployedResource, DeployedStack } from './deployed-stacks';
import { partition, resourceByArn, resourcesOfType, stackArn } from './deployed-stacks';

/** A recorded call, as local/rehearsal/call-recorder.ts records it. */
export interface RecordedAwsCall {
  readonly service: string;
  readonly region: string;
  readonly method: string;
  readonly url: string;
  readonly target?: string;
  readonly body: string;
}

/** One request IAM authorizes, before its caller is known. */
export interface AuthorizedRequest {
  readonly action: string;
  readonly resource: string;
  /** The deployed resource it names, when the stacks hold it (its policy applies). */
  readonly holder?: DeployedResource;
  readonly context?: Readonly<Record<string, string | readonly string[]>>;
  /** Set on a KMS call the service makes for the caller: which call implied it. */
  readonly impliedBy?: string;
  /**
   * A single-item DynamoDB call's partition key value, which DynamoDB gives IAM as the condition key
   * `dynamodb:LeadingKeys`. Apart from `context`: function-calls.ts adds it there only for a caller
   * whose policies read it, so every other caller's calls stay one request per action and table.
   */
  readonly leadingKeys?: readonly string[];
}

export type CallReading =
  | {
      readonly requests: readonly AuthorizedRequest[];
      /** A call IAM does not authorize (STS GetCallerIdentity): recorded, nothing to judge. */
      readonly withoutPermission?: string;
    }
  | { readonly unreadable: string };

/** Calls that read a resource's description, not its data: no KMS call follows. */
const metadataReads = new Set(['s3:ListBucket', 'dynamodb:DescribeTable']);

const json = (body: string): Record<string, unknown> => (body ? (JSON.parse(body) as Record<string, unknown>) : {});

/** Where a resource names its customer key: a table, a bucket, a queue, a secret. */
interface EncryptedProperties {
  readonly SSESpecification?: { readonly KMSMasterKeyId?: unknown };
  readonly BucketEncryption?: {
    readonly ServerSideEncryptionConfiguration?: readonly {
      readonly ServerSideEncryptionByDefault?: { readonly KMSMasterKeyID?: unknown };
    }[];
  };
  readonly KmsMasterKeyId?: unknown;
  readonly KmsKeyId?: unknown;
}

/** The parts of a DynamoDB request that name its tables (and, for one item, its key). */
interface DynamoDbInput {
  readonly TableName?: string;
  readonly IndexName?: string;
  /** GetItem's, UpdateItem's and DeleteItem's key; PutItem's item holds it. */
  readonly Key?: Readonly<Record<string, { readonly S?: string; readonly N?: string }>>;
  readonly Item?: Readonly<Record<string, { readonly S?: string; readonly N?: string }>>;
  readonly RequestItems?: Readonly<Record<string, unknown>>;
  readonly TransactItems?: readonly Readonly<Record<string, { readonly TableName: string }>>[];
}

const pathParts = (url: string) =>
  new URL(url, 'http://rehearsal').pathname
    .split('/')
    .filter(Boolean)
    .map((part) => decodeURIComponent(part));

/** The customer key a resource's data is encrypted with, when it has one. */
function encryptionKeyOf(stacks: readonly DeployedStack[], holder: DeployedResource): DeployedResource | undefined {
  const properties = holder.properties as EncryptedProperties;
  const keyArn: unknown =
    properties.SSESpecification?.KMSMasterKeyId ??
    properties.BucketEncryption?.ServerSideEncryptionConfiguration?.[0]?.ServerSideEncryptionByDefault
      ?.KMSMasterKeyID ??
    properties.KmsMasterKeyId ??
    properties.KmsKeyId;
  if (typeof keyArn !== 'string') return undefined;
  const key = resourceByArn(stacks, keyArn);
  return key?.type === 'AWS::KMS::Key' ? key : undefined;
}

export class CallReader {
  constructor(
    private readonly stacks: readonly DeployedStack[],
    /** The caller's account: where a resource not in the stacks is looked for. */
    private readonly account: string,
  ) {}

  read(call: RecordedAwsCall): CallReading {
    try {
      if (call.service === 'sts' && new URLSearchParams(call.body).get('Action') === 'GetCallerIdentity')
        return { requests: [], withoutPermission: 'sts:GetCallerIdentity' };
      const requests = this.requestsOf(call);
      if (requests.length === 0)
        return { unreadable: `${call.service} ${call.method} ${call.url} ${call.target ?? ''}` };
      return { requests: requests.flatMap((request) => [request, ...this.impliedKmsCalls(call, request)]) };
    } catch (error) {
      return { unreadable: `${call.service} ${call.method} ${call.url}: ${String(error)}` };
    }
  }

  private arnPrefix(service: string, region: string) {
    return `arn:${partition}:${service}:${region}:${this.account}`;
  }

  private named(arn: string): AuthorizedRequest['holder'] {
    return resourceByArn(this.stacks, arn);
  }

  private request(action: string, resource: string, holderArn = resource): AuthorizedRequest {
    const holder = this.named(holderArn);
    return { action, resource, ...(holder && { holder }) };
  }

  private requestsOf(call: RecordedAwsCall): AuthorizedRequest[] {
    const operation = call.target?.slice(call.target.lastIndexOf('.') + 1);
    switch (call.service) {
      case 'dynamodb':
        return this.dynamoDb(call.region, operation ?? '', json(call.body));
      case 's3':
        return this.s3(call);
      case 'ses':
        return this.ses(call);
      case 'secretsmanager': {
        const { SecretId } = json(call.body) as { SecretId: string };
        return [this.request(`secretsmanager:${operation}`, SecretId)];
      }
      case 'cloudformation': {
        const form = new URLSearchParams(call.body);
        const name = form.get('StackName') ?? '';
        const stack = this.stacks.find((candidate) => candidate.name === name || stackArn(candidate) === name);
        const arn = stack ? stackArn(stack) : `${this.arnPrefix('cloudformation', call.region)}:stack/${name}/*`;
        return form.get('Action') ? [this.request(`cloudformation:${form.get('Action')}`, arn)] : [];
      }
      case 'sts': {
        const form = new URLSearchParams(call.body);
        return form.get('Action') === 'AssumeRole' ? [this.request('sts:AssumeRole', form.get('RoleArn') ?? '')] : [];
      }
      case 'ssm': {
        // A parameter's ARN is `parameter` followed by its name, which starts with a slash.
        const { Name = '' } = json(call.body) as { Name?: string };
        return operation === 'GetParameter'
          ? [this.request('ssm:GetParameter', `${this.arnPrefix('ssm', call.region)}:parameter${Name}`)]
          : [];
      }
      case 'acm': {
        const { CertificateArn = '' } = json(call.body) as { CertificateArn?: string };
        return operation === 'DescribeCertificate' ? [this.request('acm:DescribeCertificate', CertificateArn)] : [];
      }
      case 'lambda': {
        const [, collection, name, what] = pathParts(call.url);
        if (call.method === 'GET' && collection === 'account-settings')
          return [this.request('lambda:GetAccountSettings', '*')];
        if (call.method !== 'GET' || collection !== 'functions' || what !== 'configuration') return [];
        const fn = this.named(name);
        const arn =
          fn?.arn ?? (name.startsWith('arn:') ? name : `${this.arnPrefix('lambda', call.region)}:function:${name}`);
        return [this.request('lambda:GetFunctionConfiguration', arn)];
      }
      case 'sqs': {
        const { QueueUrl } = json(call.body) as { QueueUrl: string };
        const queue = this.named(QueueUrl);
        const name = QueueUrl.split('/').pop();
        const arn = queue?.arn ?? `${this.arnPrefix('sqs', call.region)}:${name}`;
        // IAM has no batch actions: SendMessage, DeleteMessage and ChangeMessageVisibility authorize their
        // batch versions (Amazon SQS Developer Guide, "Amazon SQS batch actions").
        return [this.request(`sqs:${(operation ?? '').replace(/Batch$/, '')}`, arn)];
      }
      default:
        return [];
    }
  }

  private tableArn(region: string, name: string): string {
    const table = resourcesOfType(this.stacks, 'AWS::DynamoDB::Table').find((resource) => resource.ref === name);
    return table?.arn ?? `${this.arnPrefix('dynamodb', region)}:table/${name}`;
  }

  private dynamoDb(region: string, operation: string, input: DynamoDbInput): AuthorizedRequest[] {
    const onTable = (action: string, tableName: string, indexName?: string) => {
      const table = this.tableArn(region, tableName);
      return this.request(`dynamodb:${action}`, indexName ? `${table}/index/${indexName}` : table, table);
    };
    switch (operation) {
      case 'BatchGetItem':
      case 'BatchWriteItem':
        return Object.keys(input.RequestItems ?? {}).map((name) => onTable(operation, name));
      case 'TransactWriteItems':
        return (input.TransactItems ?? []).map((item) => {
          const [kind, { TableName }] = Object.entries(item)[0];
          const action = kind === 'ConditionCheck' ? 'ConditionCheckItem' : `${kind}Item`;
          return onTable(action, TableName);
        });
      case 'TransactGetItems':
        return (input.TransactItems ?? []).map((item) => onTable('GetItem', item.Get.TableName));
      default: {
        if (!input.TableName) return [];
        const request = onTable(operation, input.TableName, input.IndexName);
        const leadingKey = this.partitionKeyOf(request.holder, input.Key ?? input.Item);
        return [leadingKey === undefined ? request : { ...request, leadingKeys: [leadingKey] }];
      }
    }
  }

  /**
   * A single-item call's partition key value, which DynamoDB gives IAM as `dynamodb:LeadingKeys`
   * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html);
   * read from the table's KeySchema in the template. Undefined for a Query or Scan (no key read
   * here: the catalogue narrows single-item actions only, function-entry.ts' leadingKeys).
   */
  private partitionKeyOf(
    table: DeployedResource | undefined,
    key: DynamoDbInput['Key'] | undefined,
  ): string | undefined {
    const schema = (table?.properties as { KeySchema?: readonly { AttributeName: string; KeyType: string }[] })
      ?.KeySchema;
    const hashKey = schema?.find((element) => element.KeyType === 'HASH')?.AttributeName;
    const value = hashKey === undefined ? undefined : key?.[hashKey];
    return value?.S ?? value?.N;
  }

  private s3(call: RecordedAwsCall): AuthorizedRequest[] {
    const [bucket, ...key] = pathParts(call.url);
    const bucketArn = `arn:${partition}:s3:::${bucket}`;
    if (key.length === 0) {
      if (call.method === 'GET') return [this.request('s3:ListBucket', bucketArn)];
      return [];
    }
    const object = `${bucketArn}/${key.join('/')}`;
    const action = { GET: 's3:GetObject', HEAD: 's3:GetObject', PUT: 's3:PutObject', DELETE: 's3:DeleteObject' }[
      call.method
    ];
    return action ? [this.request(action, object, bucketArn)] : [];
  }

  private ses(call: RecordedAwsCall): AuthorizedRequest[] {
    const parts = pathParts(call.url);
    const prefix = this.arnPrefix('ses', call.region);
    const configurationSet = (name: string) => this.request('', `${prefix}:configuration-set/${name}`);
    if (call.method === 'POST' && parts.join('/') === 'v2/email/outbound-emails') {
      const input = json(call.body) as {
        FromEmailAddress?: string;
        ConfigurationSetName?: string;
        Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
        Content?: { Raw?: { Data?: string } };
      };
      const from = input.FromEmailAddress ?? fromHeaderOf(input.Content?.Raw?.Data);
      const { ToAddresses = [], CcAddresses = [], BccAddresses = [] } = input.Destination ?? {};
      // The keys SES sends with SendEmail, which a statement's conditions may read (the leads reader's mail).
      const context = {
        'ses:Recipients': [...ToAddresses, ...CcAddresses, ...BccAddresses],
        'ses:FromAddress': from ?? '',
      };
      const identities = resourcesOfType(this.stacks, 'AWS::SES::EmailIdentity').map((identity) => identity.ref);
      const identity =
        identities.find((name) => name === from) ?? identities.find((name) => from?.endsWith(`@${name}`)) ?? from;
      return [
        { ...this.request('ses:SendEmail', `${prefix}:identity/${identity}`), context },
        ...(input.ConfigurationSetName
          ? [{ ...configurationSet(input.ConfigurationSetName), action: 'ses:SendEmail', context }]
          : []),
      ];
    }
    if (parts[2] === 'configuration-sets' && parts[4] === 'sending' && call.method === 'PUT') {
      return [{ ...configurationSet(parts[3]), action: 'ses:PutConfigurationSetSendingOptions' }];
    }
    if (parts[2] === 'suppression' && parts[3] === 'addresses') {
      const one = parts.length > 4;
      const action = {
        GET: one ? 'GetSuppressedDestination' : 'ListSuppressedDestinations',
        PUT: 'PutSuppressedDestination',
        DELETE: 'DeleteSuppressedDestination',
      }[call.method];
      return action ? [this.request(`ses:${action}`, '*')] : [];
    }
    if (parts[2] === 'account' && call.method === 'GET') return [this.request('ses:GetAccount', '*')];
    if (parts[2] === 'identities' && parts.length === 4 && call.method === 'GET')
      return [this.request('ses:GetEmailIdentity', `${prefix}:identity/${parts[3]}`)];
    if (parts[2] === 'configuration-sets' && parts.length === 4 && call.method === 'GET')
      return [{ ...configurationSet(parts[3]), action: 'ses:GetConfigurationSet' }];
    return [];
  }

  /** The KMS calls the service makes in the caller's name for data under a customer key. */
  private impliedKmsCalls(call: RecordedAwsCall, request: AuthorizedRequest): AuthorizedRequest[] {
    // A listing or a table's description reads names and settings, not data: nothing to decrypt.
    if (!request.holder || request.impliedBy || metadataReads.has(request.action)) return [];
    const key = encryptionKeyOf(this.stacks, request.holder);
    if (!key) return [];
    const writes = ['s3:PutObject', 'sqs:SendMessage'].includes(request.action);
    // DynamoDB decrypts the table key for reads and writes alike; S3 and SQS generate a data key to write.
    const actions = writes ? ['kms:GenerateDataKey', 'kms:Decrypt'] : ['kms:Decrypt'];
    return actions.map((action) => ({
      action,
      resource: key.arn!,
      holder: key,
      context: { 'kms:ViaService': `${call.service}.${call.region}.amazonaws.com`, 'kms:CallerAccount': this.account },
      impliedBy: `${request.action} on ${request.resource}`,
    }));
  }
}

/** The address of a raw message's From header (SES v2 takes it from there when FromEmailAddress is absent). */
function fromHeaderOf(data: string | undefined): string | undefined {
  if (!data) return undefined;
  const text = Buffer.from(data, 'base64').toString('utf8');
  const header = /^From:\s*(.*)$/im.exec(text)?.[1] ?? '';
  return (/<([^>]+)>/.exec(header)?.[1] ?? header).trim() || undefined;
}
