/**
 * What the ops commands read about the deployment itself, answered from the synthesized stacks as
 * CloudFormation, Lambda, STS and SES would answer it (no emulator covers them): a stack's outputs
 * (DescribeStacks) and resources (ListStackResources), a function's configuration
 * (GetFunctionConfiguration: its role and the template's environment), a role assumed (AssumeRole:
 * credentials whose access key id is the role's name, so the recorder knows who signs next), and
 * SES's account, identity and configuration set (the set's sending switch kept, so a pause then a
 * status reads it back). For the preflight (ops/preflight/) too: who signs (GetCallerIdentity, the
 * signer's role in the stacks' account), CDK's bootstrap version parameter (SSM GetParameter),
 * Lambda's account settings (a concurrency quota of 1,000, Lambda's default) and SES's 24-hour
 * quota; and, while `firstDeploy` is on, the account before the first deploy: no stack, no table
 * (DynamoDB DescribeTable), no sender identity yet. Only the shape the SDK parses is written; the
 * recorder records the call before, and the call's authorization, not this answer, is what the
 * rehearsal judges.
 */

export interface StandInStack {
  readonly name: string;
  /** Its ARN (`arn:aws:cloudformation:…:stack/<name>/<id>`). */
  readonly id: string;
  readonly outputs: Readonly<Record<string, string>>;
  readonly resources: readonly {
    readonly logicalId: string;
    readonly physicalId: string;
    readonly type: string;
  }[];
}

export interface StandInFunction {
  readonly name: string;
  readonly arn: string;
  /** Its role's ARN. */
  readonly role: string;
  readonly environment: Readonly<Record<string, string>>;
}

export interface ControlPlane {
  readonly stacks: readonly StandInStack[];
  readonly functions: readonly StandInFunction[];
}

export interface ControlPlaneAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);

const xmlElement = (name: string, content: string) => `<${name}>${content}</${name}>`;

const members = (items: readonly string[]) => items.map((item) => xmlElement('member', item)).join('');

/** An awsQuery answer: `<ActionResponse><ActionResult>…</ActionResult></ActionResponse>`. */
const queryAnswer = (action: string, result: string): ControlPlaneAnswer => ({
  status: 200,
  contentType: 'text/xml',
  body: `<${action}Response>${xmlElement(`${action}Result`, result)}<ResponseMetadata><RequestId>rehearsal</RequestId></ResponseMetadata></${action}Response>`,
});

const queryError = (code: string, message: string): ControlPlaneAnswer => ({
  status: 400,
  contentType: 'text/xml',
  body: `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error><RequestId>rehearsal</RequestId></ErrorResponse>`,
});

const jsonAnswer = (status: number, body: unknown, type?: string): ControlPlaneAnswer => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(type ? { __type: type, message: String((body as { message?: string }).message) } : body),
});

const time = '2026-01-01T00:00:00.000Z';

/** The version the installed aws-cdk's `cdk bootstrap` writes (its template's `CdkBootstrapVersion`). */
export const standInBootstrapVersion = 33;
/** Lambda's default concurrency quota per account and region, and SES's 24-hour quota out of the sandbox (50,000). */
const concurrencyQuota = 1000;
const sesDailyQuota = 50_000;

/** The stand-in: `answer` returns undefined for a call it does not cover. */
export function standInControlPlane(plane: ControlPlane) {
  const sendingEnabled = new Map<string, boolean>();
  let beforeFirstDeploy = false;
  const account = plane.stacks[0]?.id.split(':')[4] ?? '111111111111';
  const stackNamed = (name: string) => plane.stacks.find((stack) => stack.name === name || stack.id === name);

  const cloudFormation = (form: URLSearchParams): ControlPlaneAnswer | undefined => {
    const action = form.get('Action');
    const stack = stackNamed(form.get('StackName') ?? '');
    if (action !== 'DescribeStacks' && action !== 'ListStackResources') return undefined;
    if (!stack || beforeFirstDeploy)
      return queryError('ValidationError', `Stack with id ${form.get('StackName')} does not exist`);
    const field = (name: string, value: string) => xmlElement(name, escapeXml(value));
    if (action === 'DescribeStacks') {
      const outputs = Object.entries(stack.outputs).map(
        ([key, value]) => field('OutputKey', key) + field('OutputValue', value),
      );
      const described =
        field('StackName', stack.name) +
        field('StackId', stack.id) +
        field('CreationTime', time) +
        field('StackStatus', 'UPDATE_COMPLETE') +
        xmlElement('Outputs', members(outputs));
      return queryAnswer(action, xmlElement('Stacks', members([described])));
    }
    const summaries = stack.resources.map(
      (resource) =>
        field('LogicalResourceId', resource.logicalId) +
        field('PhysicalResourceId', resource.physicalId) +
        field('ResourceType', resource.type) +
        field('LastUpdatedTimestamp', time) +
        field('ResourceStatus', 'UPDATE_COMPLETE'),
    );
    return queryAnswer(action, xmlElement('StackResourceSummaries', members(summaries)));
  };

  const sts = (form: URLSearchParams, signer: string): ControlPlaneAnswer | undefined => {
    if (form.get('Action') === 'GetCallerIdentity') {
      return queryAnswer(
        'GetCallerIdentity',
        xmlElement('Account', account) +
          xmlElement('Arn', escapeXml(`arn:aws:sts::${account}:assumed-role/${signer}/rehearsal`)) +
          xmlElement('UserId', `AROA${signer.length}:rehearsal`),
      );
    }
    if (form.get('Action') !== 'AssumeRole') return undefined;
    const roleArn = form.get('RoleArn') ?? '';
    const roleName = roleArn.split('/').pop() ?? '';
    const credentials =
      xmlElement('AccessKeyId', escapeXml(roleName)) +
      xmlElement('SecretAccessKey', 'rehearsal') +
      xmlElement('SessionToken', 'rehearsal') +
      xmlElement('Expiration', new Date(Date.now() + 900_000).toISOString());
    const user =
      xmlElement(
        'Arn',
        escapeXml(`${roleArn.replace(':iam::', ':sts::').replace(':role/', ':assumed-role/')}/rehearsal`),
      ) + xmlElement('AssumedRoleId', `AROA${roleName.length}:rehearsal`);
    return queryAnswer('AssumeRole', xmlElement('Credentials', credentials) + xmlElement('AssumedRoleUser', user));
  };

  const lambda = (method: string, parts: readonly string[]): ControlPlaneAnswer | undefined => {
    if (method === 'GET' && parts[1] === 'account-settings') {
      return jsonAnswer(200, {
        AccountLimit: { ConcurrentExecutions: concurrencyQuota, UnreservedConcurrentExecutions: concurrencyQuota },
        AccountUsage: { FunctionCount: plane.functions.length },
      });
    }
    if (method !== 'GET' || parts[1] !== 'functions' || parts[3] !== 'configuration') return undefined;
    const fn = plane.functions.find((candidate) => candidate.name === parts[2] || candidate.arn === parts[2]);
    if (!fn) return jsonAnswer(404, { message: `Function not found: ${parts[2]}` }, 'ResourceNotFoundException');
    return jsonAnswer(200, {
      FunctionName: fn.name,
      FunctionArn: fn.arn,
      Role: fn.role,
      Environment: { Variables: fn.environment },
    });
  };

  const ses = (method: string, parts: readonly string[], body: string): ControlPlaneAnswer | undefined => {
    const path = parts.slice(2);
    if (method === 'GET' && path.length === 1 && path[0] === 'account') {
      // Out of the sandbox and sending: SES's own state is outside what the rehearsal proves.
      return jsonAnswer(200, {
        ProductionAccessEnabled: true,
        SendingEnabled: true,
        EnforcementStatus: 'HEALTHY',
        SendQuota: { Max24HourSend: sesDailyQuota, MaxSendRate: 14, SentLast24Hours: 0 },
      });
    }
    if (method === 'GET' && path[0] === 'identities' && path.length === 2) {
      if (beforeFirstDeploy)
        return jsonAnswer(404, { message: `Email identity ${path[1]} does not exist.` }, 'NotFoundException');
      return jsonAnswer(200, { IdentityType: 'DOMAIN', VerifiedForSendingStatus: true, VerificationStatus: 'SUCCESS' });
    }
    if (path[0] === 'configuration-sets' && path.length >= 2) {
      const name = path[1];
      if (method === 'PUT' && path[2] === 'sending') {
        sendingEnabled.set(name, (JSON.parse(body || '{}') as { SendingEnabled?: boolean }).SendingEnabled !== false);
        return jsonAnswer(200, {});
      }
      if (method === 'GET' && path.length === 2) {
        return jsonAnswer(200, {
          ConfigurationSetName: name,
          SendingOptions: { SendingEnabled: sendingEnabled.get(name) ?? true },
        });
      }
    }
    return undefined;
  };

  const ssm = (target: string | undefined, body: string): ControlPlaneAnswer | undefined => {
    if (target !== 'AmazonSSM.GetParameter') return undefined;
    const { Name } = JSON.parse(body || '{}') as { Name?: string };
    if (!/^\/cdk-bootstrap\/[^/]+\/version$/.test(Name ?? ''))
      return jsonAnswer(400, { message: `Parameter ${Name} not found.` }, 'ParameterNotFound');
    return jsonAnswer(200, {
      Parameter: { Name, Type: 'String', Value: String(standInBootstrapVersion), Version: 1, DataType: 'text' },
    });
  };

  // Before the first deploy no table exists: what the preflight's leftover-tables check asks.
  const dynamoDb = (target: string | undefined, body: string): ControlPlaneAnswer | undefined => {
    if (!beforeFirstDeploy || target !== 'DynamoDB_20120810.DescribeTable') return undefined;
    const { TableName } = JSON.parse(body || '{}') as { TableName?: string };
    return {
      status: 400,
      contentType: 'application/x-amz-json-1.0',
      body: JSON.stringify({
        __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException',
        message: `Requested resource not found: Table: ${TableName} not found`,
      }),
    };
  };

  return {
    /** While on, the account is as before the first deploy: no stack, no table, no sender identity. */
    firstDeploy: (on: boolean) => {
      beforeFirstDeploy = on;
    },
    /** Whether a configuration set's sending is on, as the last PutConfigurationSetSendingOptions left it. */
    sendingEnabled: (configurationSet: string) => sendingEnabled.get(configurationSet) ?? true,
    answer(
      service: string,
      method: string,
      url: string,
      body: string,
      /** `X-Amz-Target` of the JSON protocols, and the access key id that signed. */
      { target, signer = '' }: { target?: string; signer?: string } = {},
    ): ControlPlaneAnswer | undefined {
      const parts = new URL(url, 'http://rehearsal').pathname
        .split('/')
        .filter(Boolean)
        .map((part) => decodeURIComponent(part));
      switch (service) {
        case 'cloudformation':
          return cloudFormation(new URLSearchParams(body));
        case 'sts':
          return sts(new URLSearchParams(body), signer);
        case 'ssm':
          return ssm(target, body);
        case 'dynamodb':
          return dynamoDb(target, body);
        case 'lambda':
          return lambda(method, parts);
        case 'ses':
          return ses(method, parts, body);
        default:
          return undefined;
      }
    },
  };
}

export type StandInControlPlane = ReturnType<typeof standInControlPlane>;
