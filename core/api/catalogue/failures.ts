/**
 * Every way a request can fail, once: its stable `code` (sent in every failure body), its HTTP
 * status, its public message, what it counts towards in the product metrics (no kind has an alarm
 * of its own: the objectives' burn-rate alarms see them all), the runbook section an operator reads first, and per route when it happens there. The functions
 * throw a `ProductError` naming its kind (`lambdas/runtime/errors.ts`); the reply
 * (`lambdas/http/http-reply.ts`), the metric (`lambdas/runtime/metrics.ts`), the routes' replies
 * and their OpenAPI causes (`core/api/replies.ts`, `form-replies.ts`), what each function's metrics
 * cover, the dashboard's failure graph and the runbook tables of docs/operate.md are all built from, or checked
 * against, these entries.
 *
 * To add a failure: add its entry to the group it belongs to, and throw it from the domain code
 * (docs/architecture.md, 'How to add a failure').
 */

import type { FailureCatalogue, FailureCause, FailureKindSpec } from './failure-kind';
import { limitFailures } from './limit-failures';
import { requestFailures } from './request-failures';
import type { ProductRouteName } from './routes';
import { serviceFailures } from './service-failures';

export type * from './failure-kind';

/** The catalogue, in its order: the requests' own refusals, the limits, then the failures on our side. */
export const failureKinds = { ...requestFailures, ...limitFailures, ...serviceFailures } as const;

/** A failure kind by its name in `failureKinds`. */
export type FailureKindName = keyof typeof failureKinds;
/** A failure body's `code`. */
export type FailureCode = (typeof failureKinds)[FailureKindName]['code'];

/** Every failure kind with its name, in the catalogue's order: what the dashboard, docs and tests iterate. */
export const failureKindList: readonly (FailureKindSpec & { readonly name: FailureKindName })[] = (
  Object.keys(failureKinds) as FailureKindName[]
).map((name) => ({ name, ...failureKinds[name] }));

/** One cause of a failure on one route, as its replies describe it. */
export interface RouteFailureCause {
  /** The kind's name in the catalogue. */
  readonly kind: string;
  readonly code: string;
  readonly status: number;
  /** The example's name. */
  readonly example: string;
  readonly when: string;
  /** The public message this cause sends: the example's. */
  readonly message: string;
}

/**
 * Every cause of every failure `route` can answer, in the catalogue's order: what its replies, its
 * OpenAPI description and its metrics are built from. `catalogue` is the real one unless a test
 * passes a copy.
 */
export function failureCausesOn(
  route: { readonly name: string; readonly method: string },
  catalogue: FailureCatalogue = failureKinds,
): RouteFailureCause[] {
  return Object.entries(catalogue).flatMap(([kind, spec]) =>
    causesOf(spec, route).map((cause) => ({
      kind,
      code: spec.code,
      status: spec.status,
      example: cause.example ?? kind,
      when: cause.when,
      message: spec.publicMessage({ message: cause.message ?? '', limit: spec.exampleLimit }),
    })),
  );
}

/** When `spec` happens on `route`: its own causes there, else its cause on every route, else none. */
export function causesOf(
  spec: FailureKindSpec,
  route: { readonly name: string; readonly method: string },
): readonly FailureCause[] {
  const listed = spec.causes[route.name as ProductRouteName];
  if (listed) return listed;
  return spec.onEveryRoute ? [spec.onEveryRoute(route)] : [];
}

/** The codes `route`'s failure bodies can carry, each once, in the catalogue's order. */
export function failureCodesOn(
  route: { readonly name: string; readonly method: string },
  catalogue: FailureCatalogue = failureKinds,
): string[] {
  return [...new Set(failureCausesOn(route, catalogue).map((cause) => cause.code))];
}
