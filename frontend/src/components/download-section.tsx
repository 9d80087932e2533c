import { downloadHeading, downloadIntro } from '../../../core/content/cheat-sheet';
import { CheatSheetForm } from './cheat-sheet-form';
import { Section, sectionLeadId } from './section';

export function DownloadSection() {
  return (
    <Section
      name="download"
      anchorId="download-section"
      title={downloadHeading}
      lead={downloadIntro}
      className="download"
    >
      <CheatSheetForm describedBy={sectionLeadId('download')} />
    </Section>
  );
}
