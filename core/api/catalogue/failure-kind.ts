/**
 * What a failure kind's entry in the catalogue holds (`failures.ts` lists them): the shape, and
 * the few values several entries share.
 */

import type { FailureMetricKind, RefusalKind } from '../../observability/product-metrics';
import type { ProductRouteName } from './routes';

/** What a thrown failure says of itself that its public message may use. */
export interface FailureDetail {
  /** The error's own message: shown only for the request refusals, which are written for the visitor. */
  readonly message: string;
  /** The limit that was reached, for the limits' messages. */
  readonly limit?: number;
}

/** What a failure counts towards: a refusal metric, a failure metric's `kind`, or nothing (API Gateway's own 4xx). */
export type FailureMetric = { readonly refusal: RefusalKind } | { readonly failure: FailureMetricKind } | null;

/**
 * One way a failure happens on one route: what the OpenAPI document lists as a cause of its
 * status, with an example body (the form route: an example page).
 */
export interface FailureCause {
  /** When it happens there, for a reader of the API's description. */
  readonly when: string;
  /** The example's name, in camelCase. @default the kind's name */
  readonly example?: string;
  /** For a kind whose public message is the error's own: the message of the example. */
  readonly message?: string;
}

export interface FailureKindSpec {
  /** Stable, snake_case: clients may branch on it; never renamed once published. */
  readonly code: string;
  readonly status: 400 | 403 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503;
  /** The sentence the visitor reads: a fixed one for every server-side failure, never an SDK's text. */
  readonly publicMessage: (detail: FailureDetail) => string;
  /** For a limit's kind: the limit its examples quote (the default). */
  readonly exampleLimit?: number;
  readonly metric: FailureMetric;
  /** A heading of docs/operate.md (its slug, with `#`): what the operator does first. */
  readonly runbook: string;
  /**
   * Per route that can answer it, when it happens there: the replies, the OpenAPI causes and the
   * metrics each function reports are built from these. A route not listed never answers it.
   */
  readonly causes: Readonly<Partial<Record<ProductRouteName, readonly FailureCause[]>>>;
  /**
   * For a kind every route answers alike (a method other than the route's): its cause on each
   * route, from the route's entry, so a new route answers it with no line here. A route listed in
   * `causes` takes those instead.
   */
  readonly onEveryRoute?: (route: { readonly method: string }) => FailureCause;
}

/** A set of failure kinds by name: the catalogue, or (in a test) a copy of it with one more. */
export type FailureCatalogue = Readonly<Record<string, FailureKindSpec>>;

export const ownMessage = ({ message }: FailureDetail) => message;
export const fixed = (text: string) => () => text;

/** Both JSON routes, one cause list: for the failures every route answers alike. */
export const onJsonRoutes = (causes: readonly FailureCause[]) => ({ saveRequest: causes, sendCheatSheet: causes });
