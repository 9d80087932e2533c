import { notFound } from '../../../core/content/site';
import { notFoundAttribute } from '../islands/island-markers';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Pre-rendered as 404.html; the page's loader logs the unknown path it was served at. */
export function NotFoundPage() {
  return (
    <>
      <SiteHeader cheatSheetHref="/#download-section" />
      <main id="main" className="not-found" {...{ [notFoundAttribute]: '' }}>
        <h1 className="not-found__code">{notFound.code}</h1>
        <p className="not-found__message">{notFound.message}</p>
        <a className="button button--primary" href="/">
          {notFound.homeLink}
        </a>
      </main>
      <SiteFooter />
    </>
  );
}
