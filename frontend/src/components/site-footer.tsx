import { book } from '../../../core/content/book';
import { footerCopy, site } from '../../../core/content/site';
import { privacyPath } from '../../../core/site-pages';
import { ExternalLink, NewTabHint } from './external-link';

/** Every page's footer: the book, its store page, the privacy page, the copyright. */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <p className="site-footer__brand">{book.title}</p>
        <ul className="site-footer__links">
          <li>
            <ExternalLink href={book.amazonUrl}>{footerCopy.bookLink}</ExternalLink>
          </li>
          <li>
            <a href={privacyPath}>{footerCopy.privacyLink}</a>
          </li>
        </ul>
        <p className="site-footer__legal">{site.footer}</p>
      </div>
      <NewTabHint />
    </footer>
  );
}
