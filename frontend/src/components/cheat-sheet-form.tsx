import { useRef, type FormEvent } from 'react';
import { formCopy } from '../content/cheat-sheet';
import { useCheatSheetRequest } from '../hooks/use-cheat-sheet-request';
import { EmailConfigAlert } from './email-config-alert';
import { ErrorDetailsDialog } from './error-details-dialog';

export function CheatSheetForm() {
  const form = useCheatSheetRequest();
  const submitButton = useRef<HTMLButtonElement>(null);
  const submitting = form.status === 'submitting';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submit();
  };

  // The submit button was disabled while the dialog opened, so the browser may not know where
  // focus was; send it back there explicitly.
  const closeDialog = () => {
    form.closeErrorDetails();
    submitButton.current?.focus();
  };

  return (
    <>
      <form className="cheat-sheet-form" onSubmit={onSubmit} aria-describedby="download-intro">
        <div className="field">
          <label htmlFor="cheat-sheet-name">{formCopy.nameLabel}</label>
          <input
            id="cheat-sheet-name"
            name="name"
            type="text"
            autoComplete="name"
            required
            maxLength={100}
            placeholder={formCopy.namePlaceholder}
            value={form.name}
            onChange={(event) => form.setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="cheat-sheet-email">{formCopy.emailLabel}</label>
          <input
            id="cheat-sheet-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            placeholder={formCopy.emailPlaceholder}
            value={form.email}
            onChange={(event) => form.setEmail(event.target.value)}
          />
        </div>
        <div className="field field--checkbox">
          <input
            id="cheat-sheet-has-book"
            name="hasBook"
            type="checkbox"
            checked={form.hasBook}
            onChange={(event) => form.setHasBook(event.target.checked)}
          />
          <label htmlFor="cheat-sheet-has-book">{formCopy.confirmLabel}</label>
        </div>
        {form.emailConfigError && <EmailConfigAlert />}
        <button ref={submitButton} type="submit" className="button button--primary button--block" disabled={submitting}>
          {submitting ? formCopy.submittingLabel : formCopy.submitLabel}
        </button>
      </form>
      <ErrorDetailsDialog details={form.errorDetails} onClose={closeDialog} onTryAgain={form.tryAgain} />
    </>
  );
}
