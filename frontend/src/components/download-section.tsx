import { downloadHeading, downloadIntro } from '../../../core/content/cheat-sheet';
import { cheatSheetIslandId, downloadSectionId } from '../islands/island-markers';
import { CheatSheetIsland } from './cheat-sheet-island';
import { Section } from './section';

export function DownloadSection() {
  return (
    <Section
      name="download"
      anchorId={downloadSectionId}
      title={downloadHeading}
      lead={downloadIntro}
      className="download"
    >
      {/* The island's element: its inside is hydrated on its own (src/islands/), so it holds nothing else. */}
      <div id={cheatSheetIslandId}>
        <CheatSheetIsland />
      </div>
    </Section>
  );
}
