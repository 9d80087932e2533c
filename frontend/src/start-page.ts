/**
 * What the page's one up-front script does (`loader.ts`): on the landing page, fetch and hydrate
 * the form's island when it is needed (islands/island-loader.ts); on the not-found page, log the
 * unknown path. Free of React: the island brings it.
 */

import { loadWhenNeeded } from './islands/island-loader';
import { cheatSheetIslandId, notFoundAttribute } from './islands/island-markers';

export function startPage(): void {
  if (document.querySelector(`[${notFoundAttribute}]`)) {
    console.error('404 Error: User attempted to access non-existent route:', window.location.pathname);
  }

  const island = document.getElementById(cheatSheetIslandId);
  if (island) {
    loadWhenNeeded(island, () => {
      import('./islands/hydrate-cheat-sheet-form')
        .then(({ hydrateCheatSheetForm }) => hydrateCheatSheetForm(island))
        // The form goes on working without it: it posts itself to the form route.
        .catch((error: unknown) => console.warn('The form will be sent without its script:', error));
    });
  }
}
