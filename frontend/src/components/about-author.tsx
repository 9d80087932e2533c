import { aboutHeading, author } from '../content/author';
import { ExternalLink } from './external-link';
import { SocialIcon } from './icons';
import { Section } from './section';

export function AboutAuthor() {
  return (
    <Section name="author" title={aboutHeading} containerClassName="about">
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
    </Section>
  );
}
