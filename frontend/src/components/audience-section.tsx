import { audienceHeading, audiencePoints } from '../content/audience';

export function AudienceSection() {
  return (
    <section className="section section--tinted" aria-labelledby="audience-title">
      <div className="container">
        <h2 id="audience-title" className="section__title">
          {audienceHeading}
        </h2>
        <ul className="audience">
          {audiencePoints.map((point) => (
            <li key={point}>{point}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}
