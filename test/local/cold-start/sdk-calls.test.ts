/**
 * Reading a recorded HTTP request back into the SDK call that sent it, and the floor's handler
 * made from those calls.
 */

import { callName, floorHandlerSource, sdkCallOf } from '../../../local/cold-start/sdk-calls';

const request = (method: string, url: string, body = '', target?: string) => ({
  method,
  url,
  body: Buffer.from(body),
  ...(target ? { target } : {}),
});

describe('reading an SDK call back from its request', () => {
  test('names a JSON-protocol call by its X-Amz-Target and keeps its body as the input', () => {
    const call = sdkCallOf(
      'DYNAMODB',
      request('POST', '/', '{"TableName":"cheat_sheet_requests"}', 'DynamoDB_20120810.PutItem'),
    );
    expect(call).toEqual({
      service: 'DYNAMODB',
      command: 'PutItemCommand',
      input: { TableName: 'cheat_sheet_requests' },
    });
  });

  test('reads an S3 object read from its path', () => {
    const call = sdkCallOf('S3', request('GET', '/mpc-cheat-sheets/folder/cheat%20sheet.pdf?x-id=GetObject'));
    expect(call).toEqual({
      service: 'S3',
      command: 'GetObjectCommand',
      input: { Bucket: 'mpc-cheat-sheets', Key: 'folder/cheat sheet.pdf' },
    });
  });

  test("reads an SES send and marks the raw message's bytes", () => {
    const call = sdkCallOf(
      'SESV2',
      request('POST', '/v2/email/outbound-emails', '{"Content":{"Raw":{"Data":"aGk="}}}'),
    );
    expect(callName(call)).toBe('SESV2/SendEmailCommand');
    expect(call.blobs).toEqual(['Content.Raw.Data']);
  });

  test("reads the pause function's call with the configuration set from its path", () => {
    const call = sdkCallOf(
      'SESV2',
      request('PUT', '/v2/email/configuration-sets/cheat-sheet/sending', '{"SendingEnabled":false}'),
    );
    expect(call).toEqual({
      service: 'SESV2',
      command: 'PutConfigurationSetSendingOptionsCommand',
      input: { ConfigurationSetName: 'cheat-sheet', SendingEnabled: false },
    });
  });

  test('fails, naming the request, for a REST call it has no rule for', () => {
    expect(() => sdkCallOf('S3', request('DELETE', '/bucket'))).toThrow('No replay rule for S3 DELETE /bucket');
  });
});

describe("the floor's handler", () => {
  const source = floorHandlerSource([
    { service: 'DYNAMODB', command: 'GetItemCommand', input: { TableName: 't' } },
    {
      service: 'SESV2',
      command: 'SendEmailCommand',
      input: { Content: { Raw: { Data: 'aGk=' } } },
      blobs: ['Content.Raw.Data'],
    },
    { service: 'DYNAMODB', command: 'PutItemCommand', input: { TableName: 't' } },
  ]);

  test('imports the clients and commands of its calls, and nothing of the product', () => {
    const imports = source.split('\n').filter((line) => line.startsWith('import '));
    expect(imports).toEqual([
      'import { DynamoDBClient, GetItemCommand, PutItemCommand } from "@aws-sdk/client-dynamodb";',
      'import { SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";',
    ]);
  });

  test('sends the calls in their recorded order', () => {
    const sends = [...source.matchAll(/clients\.(\w+)\.send\(new (\w+)\(/g)].map((match) => `${match[1]}/${match[2]}`);
    expect(sends).toEqual(['DYNAMODB/GetItemCommand', 'SESV2/SendEmailCommand', 'DYNAMODB/PutItemCommand']);
  });
});
