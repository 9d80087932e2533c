import { formOutcomeAt } from '../../core/site-pages';
import { LandingPage } from './components/landing-page';
import { NotFoundPage } from './components/not-found-page';
import { ResultPage } from './components/result-page';

/** The landing page is '/' (and its file, /index.html); every other path is the not-found page. */
export const isLandingPath = (path: string) => path === '/' || path === '/index.html';

/**
 * The page at a path, as the build pre-renders it (src/entry-server.tsx): the landing page, a
 * form result page (core/site-pages.ts) or the not-found page. Static HTML; only the form's
 * island is hydrated in the browser.
 */
export function App({ path }: { readonly path: string }) {
  if (isLandingPath(path)) return <LandingPage />;
  const outcome = formOutcomeAt(path);
  if (outcome) return <ResultPage outcome={outcome} />;
  return <NotFoundPage />;
}
