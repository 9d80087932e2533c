import type { CatalogueFunction } from '../../../core/api/catalogue/function-entry';

/**
 * The logical-id prefix of a catalogue function's resource in the product's stack: the `Api`
 * construct builds the routes, `EventFunctions` the others, each as `<id>/<id><part>`.
 */
export function functionResourcePrefix(
  fn: Pick<CatalogueFunction, 'id' | 'trigger'>,
  part: 'Function' | 'Role' | 'Logs',
): string {
  return `${fn.trigger.kind === 'http' ? 'Api' : 'EventFunctions'}${fn.id}${fn.id}${part}`;
}
