import { downloadHeading, downloadIntro } from '../content/cheat-sheet';
import { CheatSheetForm } from './cheat-sheet-form';

export function DownloadSection() {
  return (
    <section id="download-section" className="section download" aria-labelledby="download-title">
      <div className="container download__inner">
        <h2 id="download-title" className="section__title">
          {downloadHeading}
        </h2>
        <p id="download-intro" className="section__lead">
          {downloadIntro}
        </p>
        <CheatSheetForm />
      </div>
    </section>
  );
}
