/**
 * The hand-off queue as SQS behaves, on a clock the test moves: each delivery raises a message's
 * receive count and hides it for the queue's visibility timeout; a message the function reports
 * as a batch item failure stays (visible again when its visibility ends, which the function sets
 * per attempt); any other is deleted; `deliverTwice` is SQS's at-least-once delivery. The
 * function's own queue adapter (lambdas/lead-handoff/handoff-queue.ts) is tested against SQS's
 * API separately; this lets a day of retries run in milliseconds.
 */

import { randomUUID } from 'node:crypto';
import type { HandoffMessage, HandoffQueue, QueuedHandoff } from '../../../lambdas/lead-handoff/lead-handoff';

interface Held {
  readonly messageId: string;
  readonly body: string;
  receiveCount: number;
  visibleAt: number;
  receiptHandle: string;
}

export type DeliverBatch = (batch: QueuedHandoff[]) => Promise<{ readonly retry: readonly string[] }>;

export class SimulatedHandoffQueue implements HandoffQueue {
  /** Milliseconds since the epoch, on the test's clock. */
  public now: number;
  public readonly deadLetters: { readonly body: string; readonly reason: string }[] = [];
  /** The clock's time of every delivery of a message, by request id. */
  public readonly deliveries: { readonly at: number; readonly requestId: string }[] = [];
  private readonly held: Held[] = [];

  constructor(
    start: Date,
    /** The queue's visibility timeout (infra/constructs/lead-handoff.ts). */
    private readonly visibilityTimeoutSeconds = 180,
  ) {
    this.now = start.getTime();
  }

  readonly clock = () => new Date(this.now);

  get size(): number {
    return this.held.length;
  }

  async enqueue(messages: readonly HandoffMessage[]): Promise<void> {
    for (const message of messages) {
      this.held.push({
        messageId: randomUUID(),
        body: JSON.stringify(message),
        receiveCount: 0,
        visibleAt: this.now,
        receiptHandle: '',
      });
    }
  }

  async retryLater(receiptHandle: string, seconds: number): Promise<void> {
    const message = this.held.find((held) => held.receiptHandle === receiptHandle);
    if (!message) throw new Error('ReceiptHandleIsInvalid');
    message.visibleAt = this.now + seconds * 1000;
  }

  async deadLetter(body: string, reason: string): Promise<void> {
    this.deadLetters.push({ body, reason });
  }

  /** Delivers every visible message as one batch; returns how many it delivered. */
  async deliver(handle: DeliverBatch, { twice = false } = {}): Promise<number> {
    const due = this.held.filter((held) => held.visibleAt <= this.now);
    if (due.length === 0) return 0;
    const batch = due.flatMap((held) => {
      const copies = twice ? 2 : 1;
      return Array.from({ length: copies }, () => {
        held.receiveCount += 1;
        held.receiptHandle = randomUUID();
        held.visibleAt = this.now + this.visibilityTimeoutSeconds * 1000;
        this.deliveries.push({ at: this.now, requestId: (JSON.parse(held.body) as HandoffMessage).requestId });
        return {
          messageId: held.messageId,
          receiptHandle: held.receiptHandle,
          body: held.body,
          receiveCount: held.receiveCount,
        };
      });
    });
    const { retry } = await handle(batch);
    for (const held of due) {
      if (!retry.includes(held.messageId)) this.held.splice(this.held.indexOf(held), 1);
    }
    return batch.length;
  }

  /** Moves the clock to each next visible message and delivers it, until the queue is empty (or `maxDeliveries`). */
  async drain(handle: DeliverBatch, { maxDeliveries = 100 } = {}): Promise<void> {
    for (let delivered = 0; this.held.length > 0 && delivered < maxDeliveries;) {
      this.now = Math.max(this.now, Math.min(...this.held.map((held) => held.visibleAt)));
      delivered += await this.deliver(handle);
    }
  }
}
