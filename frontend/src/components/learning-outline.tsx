import { outlineHeading, outlineIntro, outlinePhases } from '../../../core/content/outline';
import { Section } from './section';

export function LearningOutline() {
  return (
    <Section name="outline" title={outlineHeading} lead={outlineIntro} tinted>
      <ol className="phases">
        {outlinePhases.map((phase) => (
          <li key={phase.title} className="phase">
            <h3 className="phase__title">{phase.title}</h3>
            <p className="phase__days">{phase.days}</p>
            <dl className="phase__items">
              {phase.items.map((item) => (
                <div key={item.area} className="phase__item">
                  <dt className={`area-label area--${item.area.toLowerCase()}`}>{item.area}</dt>
                  <dd>{item.content}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ol>
    </Section>
  );
}
