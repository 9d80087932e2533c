import { Toaster } from 'sonner';
import { ErrorBoundary } from './components/error-boundary';
import { LandingPage } from './components/landing-page';
import { NotFoundPage } from './components/not-found-page';

/** The landing page is '/' (and its file, /index.html); every other path is the not-found page. */
export const isLandingPath = (path: string) => path === '/' || path === '/index.html';

export function App({ path }: { readonly path: string }) {
  return (
    <ErrorBoundary>
      {isLandingPath(path) ? <LandingPage /> : <NotFoundPage path={path} />}
      <Toaster richColors closeButton position="top-center" />
    </ErrorBoundary>
  );
}
