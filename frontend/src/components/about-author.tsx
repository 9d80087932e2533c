import { aboutHeading, author, authorInitials, socialLinkLabel, socialListLabel } from '../../../core/content/author';
import { ExternalLink } from './external-link';
import { SocialIcon } from './icons';
import { Section } from './section';

export function AboutAuthor() {
  return (
    <Section name="author" title={aboutHeading} containerClassName="about">
      {author.photo ? (
        <img
          className="about__portrait"
          src={author.photo.src}
          alt={author.photo.alt}
          width={author.photo.width}
          height={author.photo.height}
          loading="lazy"
        />
      ) : (
        // No photo yet: the initials in the photo's place, read as part of the name below.
        <span className="about__portrait" aria-hidden="true">
          {authorInitials(author.name)}
        </span>
      )}
      <p className="about__name">{author.name}</p>
      {author.bio.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <ul className="social" aria-label={socialListLabel(author.name)}>
        {author.social.map((link) => (
          <li key={link.network}>
            <ExternalLink href={link.url} className="social__link" label={socialLinkLabel(author.name, link.network)}>
              <SocialIcon network={link.network} />
            </ExternalLink>
          </li>
        ))}
      </ul>
    </Section>
  );
}
