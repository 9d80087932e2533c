import { audienceHeading, audiencePoints } from '../../../core/content/audience';
import { Section } from './section';

export function AudienceSection() {
  return (
    <Section name="audience" title={audienceHeading} tinted>
      <ul className="audience">
        {audiencePoints.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
    </Section>
  );
}
