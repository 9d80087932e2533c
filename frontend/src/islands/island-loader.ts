/**
 * When the island's code (React with it) is fetched: the first of
 * - the download section coming within `nearViewportMargin` of the viewport (IntersectionObserver),
 * - the visitor focusing or pressing anything in the form,
 * - a link to the download section being followed (the header's 'Free Cheat Sheet', the hero's
 *   call to action), or the page being opened at `#download-section`,
 * - the browser being idle after the page has loaded (requestIdleCallback, or a short timeout
 *   where it does not exist),
 * so someone heading for the form never waits for it, and nobody pays for it before the page
 * itself has loaded. Until then, and if the code never arrives, the form posts itself to the
 * form route and still works.
 */

import { downloadSectionId } from './island-markers';

/** About a phone screen's height: the code is on its way while the visitor scrolls towards the form. */
export const nearViewportMargin = '800px 0px';

/** The longest an idle browser callback waits when the page stays busy. */
export const idleTimeoutMs = 5_000;

/** Where requestIdleCallback is missing (Safari before 18.4): this long after the page has loaded. */
export const noIdleCallbackDelayMs = 1_500;

/**
 * Calls `load` once, at the first trigger, and stops listening for the others. `load` must not
 * throw; a rejected promise is left to the caller.
 */
export function loadWhenNeeded(island: HTMLElement, load: () => void, view: typeof window = window): void {
  const { document } = view;
  const section = document.getElementById(downloadSectionId) ?? island;
  const stopListening: Array<() => void> = [];
  let started = false;

  const start = () => {
    if (started) return;
    started = true;
    for (const stop of stopListening) stop();
    load();
  };
  const listen = (target: EventTarget, type: string, listener: (event: Event) => void) => {
    target.addEventListener(type, listener, { passive: true });
    stopListening.push(() => target.removeEventListener(type, listener));
  };

  const pointsAtForm = () => view.location.hash === `#${downloadSectionId}`;
  if (pointsAtForm()) {
    start();
    return;
  }

  if (typeof view.IntersectionObserver === 'function') {
    const observer = new view.IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) start();
      },
      { rootMargin: nearViewportMargin },
    );
    observer.observe(section);
    stopListening.push(() => observer.disconnect());
  }

  listen(island, 'focusin', start);
  listen(island, 'pointerdown', start);
  listen(view, 'hashchange', () => {
    if (pointsAtForm()) start();
  });
  listen(document, 'click', (event) => {
    const link = event.target instanceof view.Element ? event.target.closest('a[href]') : null;
    if (link?.getAttribute('href')?.endsWith(`#${downloadSectionId}`)) start();
  });

  const whenIdle = () => {
    if (typeof view.requestIdleCallback === 'function') {
      const handle = view.requestIdleCallback(start, { timeout: idleTimeoutMs });
      stopListening.push(() => view.cancelIdleCallback(handle));
    } else {
      const timer = view.setTimeout(start, noIdleCallbackDelayMs);
      stopListening.push(() => view.clearTimeout(timer));
    }
  };
  if (document.readyState === 'complete') whenIdle();
  else listen(view, 'load', whenIdle);
}
