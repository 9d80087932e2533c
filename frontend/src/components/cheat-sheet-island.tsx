import { useEffect } from 'react';
import { CheatSheetForm } from './cheat-sheet-form';
import { ErrorBoundary } from './error-boundary';
import { sectionLeadId } from './section';

interface CheatSheetIslandProps {
  /** Called once React has hydrated the island (the page marks it, src/islands/). */
  readonly onHydrated?: () => void;
}

/**
 * The page's one island, pre-rendered with the rest and hydrated on its own: the form, the toasts
 * it shows and its 'Error Details' dialog. A rendering failure shows the spec's error fallback in
 * the form's place; the rest of the page is static HTML and cannot fail.
 */
export function CheatSheetIsland({ onHydrated }: CheatSheetIslandProps) {
  useEffect(() => onHydrated?.(), [onHydrated]);
  return (
    <ErrorBoundary>
      <CheatSheetForm describedBy={sectionLeadId('download')} />
    </ErrorBoundary>
  );
}
