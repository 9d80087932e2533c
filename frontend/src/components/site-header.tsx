import { book } from '../../../core/content/book';
import { headerCopy } from '../../../core/content/site';

export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <a className="site-header__brand" href="/">
          {book.title}
        </a>
        <a className="button button--small" href="#download-section">
          {headerCopy.cheatSheetLink}
        </a>
      </div>
    </header>
  );
}
