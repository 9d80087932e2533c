import { Toaster } from 'sonner';
import { ErrorBoundary } from './components/error-boundary';
import { LandingPage } from './components/landing-page';
import { NotFoundPage } from './components/not-found-page';
import { PrivacyPage } from './components/privacy-page';
import { privacyPath } from '../../core/content/privacy';
import { sitePageAt } from '../../core/site-pages';

/** Each page of core/site-pages.ts, by its clean path or its file's; anything else is not found. */
function Page({ path }: { readonly path: string }) {
  switch (sitePageAt(path)?.path) {
    case '/':
      return <LandingPage />;
    case privacyPath:
      return <PrivacyPage />;
    default:
      return <NotFoundPage path={path} />;
  }
}

export function App({ path }: { readonly path: string }) {
  return (
    <ErrorBoundary>
      <Page path={path} />
      <Toaster richColors closeButton position="top-center" />
    </ErrorBoundary>
  );
}
