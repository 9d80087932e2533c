import { downloadHeading, downloadIntro } from '../content/cheat-sheet';
import { CheatSheetForm } from './cheat-sheet-form';
import { Section } from './section';

export function DownloadSection() {
  return (
    <Section name="download" anchorId="download-section" title={downloadHeading} lead={downloadIntro} className="download">
      <CheatSheetForm describedBy="download-lead" />
    </Section>
  );
}
