/**
 * The calls Lambda itself makes with a function's role, outside its handler, so no scenario
 * records them: the function's log stream and its events (`LoggingConfig`), its trace segments
 * (`TracingConfig: Active`), and an asynchronous event that failed every retry sent to its
 * on-failure destination (`AWS::Lambda::EventInvokeConfig`), with the KMS call SQS makes for a
 * queue under a customer key. Judged with the scenarios' calls, under the scenario
 * `Lambda's runtime`.
 */
import type { AuthorizedRequest } from './aws-calls';
import { CallReader } from './aws-calls';
import type { DeployedStack } from './deployed-stacks';
import { partition, resourceByArn, resourcesOfType } from './deployed-stacks';

export interface RuntimeCaller {
  /** The function's ARN. */
  readonly arn: string;
  readonly region: string;
  readonly account: string;
}

export const runtimeScenario = "Lambda's runtime";

export function lambdaRuntimeRequests(stacks: readonly DeployedStack[], fn: RuntimeCaller): AuthorizedRequest[] {
  const deployed = resourceByArn(stacks, fn.arn);
  if (!deployed) return [];
  const properties = deployed.properties as {
    LoggingConfig?: { LogGroup?: string };
    TracingConfig?: { Mode?: string };
  };
  const requests: AuthorizedRequest[] = [];
  const logGroup = properties.LoggingConfig?.LogGroup ?? `/aws/lambda/${deployed.ref}`;
  const stream = `arn:${partition}:logs:${fn.region}:${fn.account}:log-group:${logGroup}:log-stream:rehearsal`;
  for (const action of ['logs:CreateLogStream', 'logs:PutLogEvents']) requests.push({ action, resource: stream });
  if (properties.TracingConfig?.Mode === 'Active') {
    for (const action of ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'])
      requests.push({ action, resource: '*' });
  }
  const reader = new CallReader(stacks, fn.account);
  for (const config of resourcesOfType(stacks, 'AWS::Lambda::EventInvokeConfig')) {
    const { FunctionName, DestinationConfig } = config.properties as {
      FunctionName?: string;
      DestinationConfig?: { OnFailure?: { Destination?: string } };
    };
    const destination = DestinationConfig?.OnFailure?.Destination;
    if (FunctionName !== deployed.ref || !destination) continue;
    const queue = resourceByArn(stacks, destination);
    if (queue?.type !== 'AWS::SQS::Queue') continue;
    const reading = reader.read({
      service: 'sqs',
      region: fn.region,
      method: 'POST',
      url: '/',
      target: 'AmazonSQS.SendMessage',
      body: JSON.stringify({ QueueUrl: queue.ref }),
    });
    if ('requests' in reading) requests.push(...reading.requests);
  }
  return requests;
}
