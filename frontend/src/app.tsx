import { privacyPath } from '../../core/content/privacy';
import { formOutcomeAt, sitePageAt } from '../../core/site-pages';
import { LandingPage } from './components/landing-page';
import { NotFoundPage } from './components/not-found-page';
import { PrivacyPage } from './components/privacy-page';
import { ResultPage } from './components/result-page';

/** The landing page is '/' (and its file, /index.html). */
export const isLandingPath = (path: string) => sitePageAt(path)?.path === '/';

/** The privacy page is '/privacy' (and its file, /privacy.html). */
export const isPrivacyPath = (path: string) => sitePageAt(path)?.path === privacyPath;

/**
 * The page at a path, as the build pre-renders it (src/entry-server.tsx): the landing page, the
 * privacy page, a form result page (core/site-pages.ts) or the not-found page. Static HTML; only
 * the form's island is hydrated in the browser.
 */
export function App({ path }: { readonly path: string }) {
  if (isLandingPath(path)) return <LandingPage />;
  if (isPrivacyPath(path)) return <PrivacyPage />;
  const outcome = formOutcomeAt(sitePageAt(path)?.path ?? path);
  if (outcome) return <ResultPage outcome={outcome} />;
  return <NotFoundPage />;
}
