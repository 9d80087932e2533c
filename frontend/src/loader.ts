/**
 * The one script every page loads up front, and all of the JavaScript before interaction: the
 * page itself is pre-rendered HTML that React never touches. On the landing page it fetches and
 * hydrates the form's island when it is needed (islands/island-loader.ts); on the not-found page
 * it logs the unknown path. It must stay free of React: `npm run measure:bundle` and a test hold
 * it to 5 KB gzip.
 */

import './styles.css';
import { loadWhenNeeded } from './islands/island-loader';
import { cheatSheetIslandId, notFoundAttribute } from './islands/island-markers';

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
