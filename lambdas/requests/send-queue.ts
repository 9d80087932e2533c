/**
 * The send queue (infra/constructs/send-queue.ts): the requests the send route accepted while SES's
 * rate had no slot for them, or SES throttled them. A message carries the request's id and the
 * route's claim token, never a name or an address; the queued sender (queued-send.ts) reads the
 * item itself. SQS delivers a message at least once: the sender's conditional start of its one
 * attempt (queued-attempts.ts) makes a second delivery send nothing.
 */

import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { ProductError } from '../runtime/errors';

export interface QueuedSendMessage {
  readonly requestId: string;
  /** The send route's claim: only its holder may settle the request. */
  readonly token: string;
}

/** Hands one accepted request to the sender; throws `emailServiceUnavailable` when the queue took nothing. */
export type HandOff = (message: QueuedSendMessage) => Promise<void>;

export function sqsSendQueue(sqs: SQSClient, queueUrl: string): HandOff {
  return async (message) => {
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
    } catch (error) {
      throw new ProductError('emailServiceUnavailable', 'The send queue took nothing (SQS SendMessage failed)', {
        cause: error,
      });
    }
  };
}

/** A message's body as the route wrote it; undefined for anything else (logged and dropped by the sender). */
export function parseQueuedSendMessage(body: string): QueuedSendMessage | undefined {
  try {
    const parsed = JSON.parse(body) as Partial<QueuedSendMessage>;
    if (typeof parsed.requestId === 'string' && typeof parsed.token === 'string') {
      return { requestId: parsed.requestId, token: parsed.token };
    }
  } catch {
    // Not JSON: not ours.
  }
  return undefined;
}
