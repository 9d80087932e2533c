import { frameworkHeading, frameworkIntro, pillars } from '../content/framework';

export function FrameworkIntro() {
  return (
    <section className="section" aria-labelledby="framework-title">
      <div className="container">
        <h2 id="framework-title" className="section__title">
          {frameworkHeading}
        </h2>
        <p className="section__lead">{frameworkIntro}</p>
        <ul className="pillars">
          {pillars.map((pillar) => (
            <li key={pillar.area} className="pillar">
              <h3 className={`pillar__area area--${pillar.area.toLowerCase()}`}>{pillar.area}</h3>
              <p>{pillar.summary}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
