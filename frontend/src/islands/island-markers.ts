/**
 * The names the pre-rendered HTML and the loader (src/loader.ts) share. Kept in a module of their
 * own, free of React, so that the loader stays a few hundred bytes.
 */

/** The element holding the one island: the form, its toasts and the 'Error Details' dialog. */
export const cheatSheetIslandId = 'cheat-sheet-form-island';

/** The download section, which the island's loading watches and links point at. */
export const downloadSectionId = 'download-section';

/**
 * Set on the island's element once React has hydrated it (as Astro removes `ssr` from its
 * islands): from then on the island handles the submit itself.
 */
export const hydratedAttribute = 'data-hydrated';

/** Marks the not-found page, where the loader logs the unknown path. */
export const notFoundAttribute = 'data-not-found';
