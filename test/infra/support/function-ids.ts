import type { CatalogueFunction } from '../../../core/api/catalogue/function-entry';

/**
 * The logical-id prefix of a catalogue function's resource in the product's stack: the `Api`
 * construct builds the routes, `SendQueue` the queued sender (as `Function/<id><part>`),
 * `EventFunctions` the others, each as `<id>/<id><part>`.
 */
export function functionResourcePrefix(
  fn: Pick<CatalogueFunction, 'id' | 'trigger'>,
  part: 'Function' | 'Role' | 'Logs',
): string {
  if (fn.trigger.kind === 'queue' && fn.trigger.queue === 'send') return `SendQueueFunction${fn.id}${part}`;
  return `${fn.trigger.kind === 'http' ? 'Api' : 'EventFunctions'}${fn.id}${fn.id}${part}`;
}
