/**
 * The JSON routes' reply bodies, as zod shapes: a route's entry (`catalogue/routes.ts`) names its
 * success body and the shape of its failure body; `replies.ts` gives each failure body the codes
 * its route can send, and `docs/openapi.yaml` shows them as JSON Schemas.
 */

// zod/mini, as the request schema: the same shapes give the types here and the JSON Schemas in the document.
import * as z from 'zod/mini';

const errorText = z.string().check(z.minLength(1));

/** `201` from the save route: the id of the stored request. */
export const requestSavedBody = z.strictObject({ id: z.uuid() });
/** `200` from the send route. */
export const cheatSheetSentBody = z.strictObject({ success: z.literal(true), message: z.string() });

/**
 * `200` from the challenge route: with the proof of work on, a challenge (ALTCHA's, signed) the
 * page solves before the send; off, `required: false` and nothing to solve.
 */
export const challengeIssuedBody = z.union([
  z.strictObject({
    required: z.literal(true),
    challenge: z.strictObject({
      parameters: z.strictObject({
        algorithm: z.string(),
        nonce: z.string(),
        salt: z.string(),
        cost: z.number(),
        keyLength: z.number(),
        keyPrefix: z.string(),
        keySignature: z.optional(z.string()),
        expiresAt: z.number(),
      }),
      signature: z.string(),
    }),
  }),
  z.strictObject({ required: z.literal(false) }),
]);

export type RequestSavedBody = z.output<typeof requestSavedBody>;
export type ChallengeIssuedBody = z.output<typeof challengeIssuedBody>;
export type CheatSheetSentBody = z.output<typeof cheatSheetSentBody>;

/** A failure as a route sends it: its public message and its code. */
export interface FailureReplyText {
  readonly message: string;
  readonly code: string;
}

/** A failure body: its shape around the codes its route can send, and the body of one failure. */
export interface FailureBodyShape {
  readonly schema: (codes: readonly [string, ...string[]]) => z.core.$ZodType;
  readonly of: (failure: FailureReplyText) => Record<string, unknown>;
}

/** `{error, code}`: `code` names the failure kind (`catalogue/failures.ts`). */
export const errorFailureBody: FailureBodyShape = {
  schema: (codes) => z.strictObject({ error: errorText, code: z.enum(codes) }),
  of: ({ message, code }) => ({ error: message, code }),
};

/** `{success: false, error, code}`: the page reads `success` first, then `error`. */
export const unsuccessfulFailureBody: FailureBodyShape = {
  schema: (codes) => z.strictObject({ success: z.literal(false), error: errorText, code: z.enum(codes) }),
  of: ({ message, code }) => ({ success: false, error: message, code }),
};
