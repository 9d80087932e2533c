import { book, heroCopy } from '../../../core/content/book';
import { ExternalLink } from './external-link';

export function Hero() {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero__inner">
        <div className="hero__text">
          <h1 id="hero-title" className="hero__title">
            {book.title}
          </h1>
          <p className="hero__subtitle">{book.subtitle}</p>
          <p className="hero__tagline">{book.tagline}</p>
          <div className="hero__actions">
            <ExternalLink href={book.amazonUrl} className="button button--primary">
              {heroCopy.buyLabel}
            </ExternalLink>
            <a className="button button--ghost" href="#download-section">
              {heroCopy.cheatSheetLink}
            </a>
          </div>
        </div>
        <img
          className="hero__cover"
          src={book.cover.src}
          alt={book.cover.alt}
          width={book.cover.width}
          height={book.cover.height}
          fetchPriority="high"
        />
      </div>
    </section>
  );
}
