import { useEffect } from 'react';
import { notFound } from '../../../core/content/site';

export function NotFoundPage({ path }: { readonly path: string }) {
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', path);
  }, [path]);

  return (
    <main id="main" className="not-found">
      <h1 className="not-found__code">{notFound.code}</h1>
      <p className="not-found__message">{notFound.message}</p>
      <a className="button button--primary" href="/">
        {notFound.homeLink}
      </a>
    </main>
  );
}
