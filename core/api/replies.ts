/**
 * What the JSON routes answer: the shape of every reply body, and which statuses each route gives
 * and why, built from the catalogue: each route's entry (`catalogue/routes.ts`: its success reply
 * and the shape of its failure body) and the failure kinds that list it among their causes
 * (`catalogue/failures.ts`). The functions reply with these (`lambdas/http/http-reply.ts` looks
 * a failure's kind up in the catalogue) and `docs/openapi.yaml` is generated from them
 * (`infra/tools/openapi-document.ts`), so the description cannot drift from what is sent.
 */

import type * as z from 'zod/mini';

import {
  defaultAddressDailyCap,
  defaultClientHourlySaveCap,
  defaultClientHourlySendCap,
  defaultNetworkHourlySaveCap,
  defaultNetworkHourlySendCap,
} from '../config/function-environment';
import { failureCausesOn, failureCodesOn, failureKinds } from './catalogue/failures';
import type { FailureCatalogue } from './catalogue/failure-kind';
import { productRouteList, type ProductRoute, type SuccessReply } from './catalogue/routes';
import type { FailureBodyShape } from './reply-bodies';
import { maxBodyBytes, maxWebsiteLength } from './request-limits';

export type * from './reply-bodies';
export type { SuccessReply } from './catalogue/routes';

/** One reason a route answers a status, with the message it then sends (the document's example). */
export interface FailureCause {
  /** The example's name, in camelCase. */
  readonly name: string;
  /** The failure kind it is. */
  readonly kind: string;
  /** What goes into the body's `code`. */
  readonly code: string;
  readonly when: string;
  readonly message: string;
}

/** A header a failure status always carries besides `Content-Type` and `Cache-Control`. */
export interface FixedReplyHeader {
  readonly description: string;
  readonly value: string;
}

export interface FailureStatus {
  readonly status: number;
  readonly description: string;
  readonly headers?: Readonly<Record<string, FixedReplyHeader>>;
  /** The routes that answer this status, each with its causes; a route not listed never does. */
  readonly causes: Readonly<Partial<Record<string, readonly FailureCause[]>>>;
}

/** What a status means on the JSON routes; its causes are the catalogue's. */
export interface StatusMeaning {
  readonly description: string;
  readonly headers?: Readonly<Record<string, FixedReplyHeader>>;
}

/** A status a new failure kind brings that is not described here is described by its causes. */
export const jsonStatusMeanings: Readonly<Partial<Record<number, StatusMeaning>>> = {
  400: {
    description: `The request is not a usable \`{name, email}\` (with, optionally, the honeypot \`website\`: text of at most ${maxWebsiteLength} characters). Nothing was stored or sent.`,
  },
  403: {
    description:
      'Behind CloudFront: the request did not come through the site (the API was called at its own address), so the address it comes from cannot be trusted. Nothing was stored or sent.',
  },
  405: {
    description:
      "The route takes one method only (the `Allow` header names it). It answers every other method itself, so that none gets the site's not-found page.",
  },
  413: {
    description: `The body is larger than ${maxBodyBytes / 1024} KB (${maxBodyBytes} bytes). Nothing was stored or sent.`,
  },
  415: {
    description:
      'The body is not declared as JSON: `Content-Type` must be `application/json`, optionally with `charset=utf-8`.',
  },
  429: {
    description: `A limit was reached. Sends: the address's daily cap (the stack's \`dailySendCap\`, ${defaultAddressDailyCap} by default), the client's hourly limit (\`clientHourlySendCap\`, ${defaultClientHourlySendCap}) or the network's (\`networkHourlySendCap\`, ${defaultNetworkHourlySendCap}). Saves: the client's (\`clientHourlySaveCap\`, ${defaultClientHourlySaveCap}) or the network's (\`networkHourlySaveCap\`, ${defaultNetworkHourlySaveCap}) hourly limit. Nothing was stored or sent.`,
  },
  500: { description: 'A fault on our side that retrying will not fix.' },
  502: {
    description: 'The e-mail service refused the message. Nothing was sent, and the send does not count.',
  },
  503: { description: 'A service we depend on is unavailable for now: worth retrying later.' },
};

/** A JSON route with what it answers: its entry's success reply and failure body. */
export interface JsonRoute {
  readonly name: string;
  readonly path: string;
  readonly route: ProductRoute<string>;
  readonly success: SuccessReply;
  readonly failureBody: FailureBodyShape;
  readonly schemaNames: { readonly success: string; readonly failure: string };
}

/** The routes that answer JSON, in the catalogue's order. */
export function jsonRoutesOf(routes: readonly ProductRoute<string>[]): JsonRoute[] {
  return routes.flatMap((route) =>
    route.reply.kind === 'json'
      ? [
          {
            name: route.name,
            path: route.path,
            route,
            success: route.reply.success,
            failureBody: route.reply.failureBody,
            schemaNames: route.reply.schemaNames,
          },
        ]
      : [],
  );
}

/**
 * Each status the JSON routes answer, ascending, with each route's causes of it. `catalogue` is
 * the real one unless a test passes a copy.
 */
export function failureStatusesOf(
  routes: readonly JsonRoute[],
  catalogue: FailureCatalogue = failureKinds,
): FailureStatus[] {
  const causes = routes.map((route) => [route.name, failureCausesOn(route.route, catalogue)] as const);
  const statuses = [...new Set(causes.flatMap(([, ofRoute]) => ofRoute.map((cause) => cause.status)))].sort(
    (a, b) => a - b,
  );
  return statuses.map((status) => {
    const byRoute = causes.flatMap(([route, ofRoute]) => {
      const ofStatus = ofRoute.filter((cause) => cause.status === status);
      return ofStatus.length === 0
        ? []
        : [
            [
              route,
              ofStatus.map(({ example, kind, code, when, message }) => ({ name: example, kind, code, when, message })),
            ] as const,
          ];
    });
    const meaning = jsonStatusMeanings[status];
    return {
      status,
      description:
        meaning?.description ?? byRoute.flatMap(([, ofStatus]) => ofStatus.map((cause) => cause.when)).join(' '),
      ...(meaning?.headers && { headers: meaning.headers }),
      causes: Object.fromEntries(byRoute),
    };
  });
}

/** A route's failure body, with the codes its causes can carry. */
export function failureBodySchemaOf(route: JsonRoute, catalogue: FailureCatalogue = failureKinds): z.core.$ZodType {
  const [first, ...rest] = failureCodesOn(route.route, catalogue);
  if (first === undefined) throw new Error(`${route.name} has no failure`);
  return route.failureBody.schema([first, ...rest]);
}

/** The JSON routes of the catalogue. */
export const jsonRoutes: readonly JsonRoute[] = jsonRoutesOf(productRouteList);

/** Every status the JSON routes answer, with its causes on each. */
export const failureStatuses: readonly FailureStatus[] = failureStatusesOf(jsonRoutes);
