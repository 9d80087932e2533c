import { useEffect, useRef } from 'react';
import { errorDialog } from '../../../core/content/messages';
import type { ErrorDetails } from '../hooks/use-cheat-sheet-request';

interface ErrorDetailsDialogProps {
  /** What went wrong; the dialog is open while it is not null. */
  readonly details: ErrorDetails | null;
  readonly onClose: () => void;
  readonly onTryAgain: () => void;
}

/**
 * The 'Error Details' modal. The native <dialog> opened with showModal() moves focus in, traps
 * it, closes on Escape and makes the page behind it inert, with no library to download.
 */
export function ErrorDetailsDialog({ details, onClose, onTryAgain }: ErrorDetailsDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const open = details !== null;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open === open) return;
    // Browsers without showModal (Safari before 15.4, jsdom) still get a visible, labelled dialog.
    if (!dialog.showModal) dialog.toggleAttribute('open', open);
    else if (open) dialog.showModal();
    else dialog.close();
  }, [open]);

  return (
    <dialog
      ref={dialogRef}
      className="dialog"
      aria-labelledby="error-details-title"
      aria-describedby="error-details-summary error-details-intro"
      // Escape closes the native dialog itself; keep React's state in step.
      onClose={() => {
        if (open) onClose();
      }}
    >
      <h2 id="error-details-title" className="dialog__title">
        {errorDialog.title}
      </h2>
      {/* The modal makes the toast behind it inert: screen readers hear its words here instead. */}
      <p id="error-details-summary" className="visually-hidden">
        {details && `${details.toast.title}. ${details.toast.description}`}
      </p>
      <p id="error-details-intro">{errorDialog.intro}</p>
      <ul className="dialog__suggestions">
        {errorDialog.suggestions.map((suggestion) => (
          <li key={suggestion}>{suggestion}</li>
        ))}
      </ul>
      <h3 className="dialog__label">{errorDialog.technicalLabel}</h3>
      <pre className="dialog__details">{details?.technical}</pre>
      <div className="dialog__actions">
        <button type="button" className="button button--ghost-dark" onClick={onClose}>
          {errorDialog.close}
        </button>
        <button type="button" className="button button--primary" onClick={onTryAgain}>
          {errorDialog.tryAgain}
        </button>
      </div>
    </dialog>
  );
}
