import { aboutHeading, author } from '../content/author';
import { ExternalLink } from './external-link';
import { SocialIcon } from './icons';

export function AboutAuthor() {
  return (
    <section className="section" aria-labelledby="author-title">
      <div className="container about">
        <h2 id="author-title" className="section__title">
          {aboutHeading}
        </h2>
        <p className="about__name">{author.name}</p>
        {author.bio.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
        <ul className="social" aria-label={`${author.name} on social media`}>
          {author.social.map((link) => (
            <li key={link.network}>
              <ExternalLink
                href={link.url}
                className="social__link"
                label={`${author.name} on ${link.network} (opens in a new tab)`}
              >
                <SocialIcon network={link.network} />
              </ExternalLink>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
