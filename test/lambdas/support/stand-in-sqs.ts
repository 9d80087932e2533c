/**
 * A stand-in for SQS (and the one Secrets Manager call the hand-off makes) on loopback: no emulator
 * of either runs here, so the real SDK clients are pointed at this small server
 * (`AWS_ENDPOINT_URL_SQS`, `AWS_ENDPOINT_URL_SECRETS_MANAGER`). It speaks their AWS JSON protocol
 * (`X-Amz-Target`), records every call and answers as the services do: SendMessageBatch with each
 * entry's body MD5 (the SDK checks it), SendMessage, ChangeMessageVisibility, GetSecretValue.
 * `refuseEntries` makes SendMessageBatch report its entries as failed.
 */

import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInCall {
  /** The operation, e.g. `SendMessageBatch`. */
  readonly action: string;
  readonly input: Record<string, unknown>;
}

export interface StandInSqs {
  readonly url: string;
  readonly calls: StandInCall[];
  /** The calls of one operation, in order. */
  callsOf(action: string): Record<string, unknown>[];
  /** While set, SendMessageBatch reports every entry failed with this code. */
  refuseEntries: string | undefined;
  close(): Promise<void>;
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

export async function startStandInSqs(secrets: Readonly<Record<string, string>> = {}): Promise<StandInSqs> {
  const calls: StandInCall[] = [];
  const standIn = {
    calls,
    refuseEntries: undefined as string | undefined,
    callsOf: (action: string) => calls.filter((call) => call.action === action).map((call) => call.input),
  };
  const answer = (action: string, input: Record<string, unknown>): [number, unknown] => {
    switch (action) {
      case 'SendMessageBatch': {
        const entries = input.Entries as { Id: string; MessageBody: string }[];
        if (standIn.refuseEntries !== undefined) {
          const code = standIn.refuseEntries;
          return [200, { Failed: entries.map(({ Id }) => ({ Id, Code: code, SenderFault: false })), Successful: [] }];
        }
        return [
          200,
          {
            Successful: entries.map(({ Id, MessageBody }) => ({
              Id,
              MessageId: `message-${calls.length}-${Id}`,
              MD5OfMessageBody: md5(MessageBody),
            })),
            Failed: [],
          },
        ];
      }
      case 'SendMessage':
        return [200, { MessageId: `message-${calls.length}`, MD5OfMessageBody: md5(input.MessageBody as string) }];
      case 'ChangeMessageVisibility':
        return [200, {}];
      case 'GetSecretValue': {
        const value = secrets[input.SecretId as string];
        if (value === undefined) {
          return [400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the secret." }];
        }
        return [200, { ARN: input.SecretId, Name: 'mail-provider', SecretString: value, VersionId: 'v1' }];
      }
      default:
        return [400, { __type: 'InvalidAction', message: `The stand-in does not answer ${action}.` }];
    }
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // `AmazonSQS.SendMessageBatch`, `secretsmanager.GetSecretValue`.
      const action = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      calls.push({ action, input });
      const [status, body] = answer(action, input);
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(standIn, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
