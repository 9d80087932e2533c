import { book } from '../../../core/content/book';
import { headerCopy } from '../../../core/content/site';

/** `cheatSheetHref`: the form's anchor; pages other than `/` link to it on `/`. */
export function SiteHeader({ cheatSheetHref = '#download-section' }: { readonly cheatSheetHref?: string }) {
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <a className="site-header__brand" href="/">
          {book.title}
        </a>
        <a className="button button--small" href={cheatSheetHref}>
          {headerCopy.cheatSheetLink}
        </a>
      </div>
    </header>
  );
}
