/**
 * The functions' one typed failure: a `ProductError` names its kind in the failure catalogue
 * (`core/api/catalogue/failures.ts`), which says what status, public message, code and metric it
 * becomes. The error says what went wrong in domain terms only: its message is for the logs, except
 * for the request refusals, whose message is written for the visitor.
 */

import type { FailureDetail, FailureKindName } from '../../core/api/catalogue/failures';

export interface ProductErrorOptions {
  readonly cause?: unknown;
  /** The limit reached, for the limits' messages. */
  readonly limit?: number;
}

/** A failure the catalogue knows; anything else thrown is `unexpected`. */
export class ProductError extends Error implements FailureDetail {
  override readonly name = 'ProductError';
  readonly limit?: number;

  constructor(
    readonly kind: FailureKindName,
    message: string,
    { cause, limit }: ProductErrorOptions = {},
  ) {
    super(message, cause === undefined ? undefined : { cause });
    if (limit !== undefined) this.limit = limit;
  }
}

/** A limit was reached: the error carries the limit, for its public message. */
export function limitReached(kind: FailureKindName, limit: number): ProductError {
  return new ProductError(kind, `${kind}: the limit of ${limit} was reached`, { limit });
}

/** The catalogue's kind of anything thrown: a typed error's own, `unexpected` for the rest. */
export function failureKindOf(error: unknown): FailureKindName {
  return error instanceof ProductError ? error.kind : 'unexpected';
}

/** Whether `error` is a `ProductError` of `kind`. */
export function isFailureOf(error: unknown, kind: FailureKindName): error is ProductError {
  return error instanceof ProductError && error.kind === kind;
}
