/**
 * The island's code, fetched by the loader when the form is needed: React, the form, its toasts
 * and dialog (no library beyond React: the browser's dialog, constraint validation and CSS). Hydrates the pre-rendered form in place; nothing else on the page is React's.
 */

import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { CheatSheetIsland } from '../components/cheat-sheet-island';
import { hydratedAttribute } from './island-markers';

export function hydrateCheatSheetForm(container: HTMLElement): void {
  const markHydrated = () => container.setAttribute(hydratedAttribute, '');
  // As a transition, React hydrates in slices of a few milliseconds, yielding to the browser in
  // between, instead of one long task while the page may still be loading.
  startTransition(() => {
    hydrateRoot(
      container,
      <StrictMode>
        <CheatSheetIsland onHydrated={markHydrated} />
      </StrictMode>,
    );
  });
}
