import { frameworkHeading, frameworkIntro, pillars } from '../../../core/content/framework';
import { Section } from './section';

export function FrameworkIntro() {
  return (
    <Section name="framework" title={frameworkHeading} lead={frameworkIntro}>
      <ul className="pillars">
        {pillars.map((pillar) => (
          <li key={pillar.area} className="pillar">
            <h3 className={`pillar__area area--${pillar.area.toLowerCase()}`}>{pillar.area}</h3>
            <p>{pillar.summary}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
