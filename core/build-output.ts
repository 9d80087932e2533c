/**
 * Where `npm run build` writes what the stack ships and the local twin serves, relative to the
 * repository root (consumers `path.join` them to the root they run from). The one
 * place these paths are written down.
 */

import { cheatSheetFileName } from './content/cheat-sheet';
import { notFoundFile, sitePages } from './site-pages';

export const buildOutput = {
  /** Vite's client build plus the pre-rendered pages: what the site bucket holds. */
  siteDirectory: 'frontend/dist',
  /** The pre-rendered pages, inside `siteDirectory`: every page of `site-pages.ts` and the not-found page. */
  pages: [...sitePages.map((page) => page.file), notFoundFile],
  /** The server-side render bundle the pre-render step loads (not shipped). */
  prerenderDirectory: 'dist/prerender',
  /** What the cheat-sheet bucket holds. */
  cheatSheetDirectory: 'dist/cheat-sheet',
  /** The PDF itself, inside `cheatSheetDirectory`. */
  cheatSheetFile: cheatSheetFileName,
} as const;
