/** The copy swap (test/support/copy-swap.ts) inside a page: what the visual tests draw. */
import type { CopySwap, VisualFreeze } from '../../support/copy-swap';

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

/**
 * Runs in the page, before swapPageText: a list the author lengthened loses its extra entries, one
 * they shortened gets the frozen copy's missing entries (a copy of its last entry's element, with
 * the frozen text), and each of the author's images takes the frozen copy's size (its pixels come
 * from the frozen file: the visual test routes the image's address to it). Self-contained, for page.evaluate.
 */
export function freezePageStructure({ lists, images }: Pick<VisualFreeze, 'lists' | 'images'>): void {
  const normal = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
  // The innermost element whose whole text is `text`.
  const elementOf = (text: string): Element | undefined => {
    let found: Element | undefined;
    for (const element of document.body.querySelectorAll('*'))
      if (normal(element.textContent) === text) found = element;
    return found;
  };
  for (const { current, frozen } of lists) {
    const elements = current.map((text) => elementOf(normal(text)));
    if (elements.some((element) => element === undefined)) continue; // not on this page
    elements.slice(frozen.length).forEach((element) => element!.remove());
    let anchor = elements[Math.min(current.length, frozen.length) - 1]!;
    for (const text of frozen.slice(current.length)) {
      const copy = anchor.cloneNode(false) as Element;
      copy.textContent = text;
      anchor.after(copy);
      anchor = copy;
    }
  }
  for (const { src, width, height } of images) {
    for (const image of document.querySelectorAll(`img[src="${CSS.escape(src)}"]`)) {
      image.setAttribute('width', String(width));
      image.setAttribute('height', String(height));
    }
  }
}
