import { aboutHeading, author, socialLinkLabel, socialListLabel } from '../../../core/content/author';
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
