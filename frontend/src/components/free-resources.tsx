import { resourceCards, resourcesHeading, resourcesIntro, type ResourceCard } from '../../../core/content/resources';
import { ExternalLink } from './external-link';
import { ResourceIconView } from './icons';
import { Section } from './section';

function CardAction({ card }: { readonly card: ResourceCard }) {
  if (card.link === null) {
    return (
      <button type="button" className="button button--muted" disabled>
        {card.buttonText}
      </button>
    );
  }
  return (
    <ExternalLink href={card.link} className="resource__logo-link" label={card.title}>
      <img src={card.logo.src} alt={card.logo.alt} width={card.logo.width} height={card.logo.height} />
    </ExternalLink>
  );
}

export function FreeResources() {
  return (
    <Section name="resources" title={resourcesHeading} lead={resourcesIntro}>
      <ul className="resources">
        {resourceCards.map((card) => (
          <li key={card.title} className="resource">
            <ResourceIconView icon={card.icon} className="resource__icon" />
            <h3 className="resource__title">{card.title}</h3>
            <p className="resource__description">{card.description}</p>
            <CardAction card={card} />
          </li>
        ))}
      </ul>
    </Section>
  );
}
