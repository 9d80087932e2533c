/**
 * The route recipe's example (docs/architecture.md, 'How to add a route'): `GET /api/health`, as
 * a new route's entry would be written in core/api/catalogue/functions.ts, and its handler
 * (health-handler.ts). The recipe's test adds it to a copy of the catalogue, and nowhere else.
 */
import * as z from 'zod/mini';
import type { FunctionEntry } from '../../../core/api/catalogue/function-entry';
import { errorFailureBody } from '../../../core/api/reply-bodies';

export const healthRoute = {
  id: 'Health',
  trigger: {
    kind: 'http',
    method: 'GET',
    path: '/api/health',
    throttle: { rateLimit: 1, burstLimit: 2, reason: 'A test route: a probe a second is plenty.' },
    reply: {
      kind: 'json',
      success: {
        status: 200,
        description: 'The API answers.',
        body: z.object({ ok: z.literal(true) }),
        example: { ok: true },
      },
      failureBody: errorFailureBody,
      schemaNames: { success: 'Health', failure: 'HealthFailure' },
    },
    openApi: { operationId: 'health', summary: 'Is the API up?', description: 'Answers 200 while the API runs.' },
  },
  entry: 'test/support/recipes/health-handler.ts',
  description: 'GET /api/health: says the API answers.',
  logService: 'health',
} as const satisfies FunctionEntry;
