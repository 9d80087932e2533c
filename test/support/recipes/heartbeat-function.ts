/**
 * The scheduled function recipe's example (docs/architecture.md, 'How to add a scheduled or event
 * function'): an hourly heartbeat that calls no AWS service, as its entry would be written in
 * core/api/catalogue/functions.ts, and its handler. The recipe's test adds it to a copy of the
 * catalogue, and nowhere else.
 */
import type { FunctionEntry } from '../../../core/api/catalogue/function-entry';

export const heartbeatFunction = {
  id: 'Heartbeat',
  trigger: {
    kind: 'schedule',
    schedule: { everyMinutes: 60 },
    description: 'Invokes the heartbeat every hour.',
    retryAttempts: 0,
    undelivered: {
      delivery: 'A test function: a lost tick is replaced by the next.',
      invocation: 'A test function: a failed run is in its log group and its Errors alarm.',
    },
  },
  entry: 'test/support/recipes/heartbeat-handler.ts',
  description: 'Logs that the product is alive, every hour.',
  logService: 'heartbeat',
} as const satisfies FunctionEntry;
