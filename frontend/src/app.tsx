import { Toaster } from 'sonner';
import { privacyPath } from '../../core/content/privacy';
import { sitePageAt } from '../../core/site-pages';
import { ErrorBoundary } from './components/error-boundary';
import { LandingPage } from './components/landing-page';
import { NotFoundPage } from './components/not-found-page';
import { PrivacyPage } from './components/privacy-page';

/** The landing page is '/' (and its file, /index.html). */
export const isLandingPath = (path: string) => sitePageAt(path)?.path === '/';

/** The privacy page is '/privacy' (and its file, /privacy.html). */
export const isPrivacyPath = (path: string) => sitePageAt(path)?.path === privacyPath;

/** The page at a path (core/site-pages.ts); every other path is the not-found page. */
function Page({ path }: { readonly path: string }) {
  if (isLandingPath(path)) return <LandingPage />;
  if (isPrivacyPath(path)) return <PrivacyPage />;
  return <NotFoundPage path={path} />;
}

export function App({ path }: { readonly path: string }) {
  return (
    <ErrorBoundary>
      <Page path={path} />
      <Toaster richColors closeButton position="top-center" />
    </ErrorBoundary>
  );
}
