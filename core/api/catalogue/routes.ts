/**
 * The routes: the entries of the catalogue of functions (`functions.ts`) that an HTTP route
 * invokes, each with its trigger's method, path, throttle, reply and OpenAPI operation beside the
 * entry's own fields. Nothing is written here that the catalogue does not say: a route is added
 * by adding its entry there.
 */

import { replyMarginMs, worstCaseSdkCallMs } from '../../config/sdk-timeouts';
import type { CatalogueFunction, HttpTrigger, RouteReply } from './function-entry';
import { functionList, type ProductRouteName } from './functions';

export type * from './function-entry';
export type { FunctionName, ProductRouteName } from './functions';
export { integrationTimeoutSeconds, tableActionsOf } from './functions';

/** A function an HTTP route invokes, with its route's method, path, throttle, reply and operation. */
export type ProductRoute<Name extends string = ProductRouteName> = CatalogueFunction<Name> & Omit<HttpTrigger, 'kind'>;

/** The routes among `functions` (the catalogue's, or a test's copy of it), in their order. */
export function routesOf<Name extends string>(functions: readonly CatalogueFunction<Name>[]): ProductRoute<Name>[] {
  return functions.flatMap((fn) => {
    if (fn.trigger.kind !== 'http') return [];
    const { kind, ...route } = fn.trigger;
    void kind;
    return [{ ...fn, ...route }];
  });
}

/** Every route, in the catalogue's order: what the `Api` construct and the local twin iterate. */
export const productRouteList: readonly ProductRoute[] = routesOf(functionList) as ProductRoute[];

/** Each route by its name. */
export const productRoutes = Object.fromEntries(productRouteList.map((route) => [route.name, route])) as Readonly<
  Record<ProductRouteName, ProductRoute>
>;

/** A JSON route's reply: its success reply and its failure body (what its handler answers with). */
export function jsonReplyOf(name: ProductRouteName): Extract<RouteReply, { readonly kind: 'json' }> {
  const { reply } = productRoutes[name];
  if (reply.kind !== 'json') throw new Error(`${name} does not answer JSON`);
  return reply;
}

/** A timeout must outlast a failing SDK call and leave time to reply; false names the route that does not. */
export function timeoutLeavesRoomToReply(route: Pick<ProductRoute, 'timeoutSeconds'>): boolean {
  return route.timeoutSeconds * 1000 >= worstCaseSdkCallMs + replyMarginMs;
}

/**
 * The route throttle rule: the routes' own rates add up to at most the stage's rate, so a flood
 * on one route is answered 429 there and leaves the others their share (RouteThrottle in
 * function-entry.ts). A new route takes its share from the others, or the stage's rate
 * (`apiRateLimit`) grows by it.
 */
export const routeThrottleRule =
  "the route throttle rule: the routes' rates add up to at most the stage's rate (apiRateLimit)";

/**
 * Undefined when `routes` keep the route throttle rule under a stage of `stageRate` requests a
 * second; else the message the synth fails with, naming the rule, each route's rate and the way out.
 */
export function routeThrottleRuleBreach(
  routes: readonly Pick<ProductRoute<string>, 'method' | 'path' | 'throttle'>[],
  stageRate: number,
): string | undefined {
  const total = routes.reduce((sum, { throttle }) => sum + throttle.rateLimit, 0);
  if (total <= stageRate) return undefined;
  const rates = routes.map(({ method, path, throttle }) => `${method} ${path} ${throttle.rateLimit}`).join(' + ');
  return (
    `Breaks ${routeThrottleRule}: ${rates} = ${total} a second, over the stage's ${stageRate}. ` +
    `Lower a route's throttle in its entry (core/api/catalogue/functions.ts), or raise the stage's rate (-c apiRateLimit=${total}).`
  );
}
