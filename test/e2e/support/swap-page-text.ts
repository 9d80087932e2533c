/** The copy swap (test/support/copy-swap.ts) inside a page: what the visual tests draw. */
import type { CopySwap } from '../../support/copy-swap';

/**
 * Runs in the page: replaces the current texts by the frozen ones in every text node (what is
 * drawn; attributes such as `alt` draw nothing while the image loads). Given to page.evaluate.
 */
export function swapPageText(swaps: readonly CopySwap[]): void {
  if (swaps.length === 0) return;
  const lookup = new Map(swaps);
  const pattern = new RegExp(swaps.map(([from]) => from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node as Text;
    const swapped = text.data.replace(pattern, (found) => lookup.get(found) ?? found);
    if (swapped !== text.data) text.data = swapped;
  }
}
