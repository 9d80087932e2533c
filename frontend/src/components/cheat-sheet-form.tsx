import { useEffect, useRef, type FormEvent } from 'react';
import { maxEmailLength, maxNameLength } from '../../../core/api/request-limits';
import { cheatSheetFormRoute } from '../../../core/api/routes';
import { formCopy } from '../../../core/content/cheat-sheet';
import { formPrivacyNotice, privacyPath } from '../../../core/content/privacy';
import { useCheatSheetRequest } from '../hooks/use-cheat-sheet-request';
import { EmailConfigAlert } from './email-config-alert';
import { ErrorDetailsDialog } from './error-details-dialog';
import { TextField } from './text-field';

export function CheatSheetForm({ describedBy }: { readonly describedBy?: string }) {
  const form = useCheatSheetRequest();
  const formElement = useRef<HTMLFormElement>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
  const submitting = form.status === 'submitting';

  // The form is usable before its island hydrates, and React keeps the inputs' values when it
  // hydrates without telling the state: take over whatever the visitor typed or ticked by then.
  const { setName, setEmail, setHasBook, setWebsite } = form;
  useEffect(() => {
    const fields = formElement.current?.elements;
    if (!fields) return;
    const input = (name: string) => fields.namedItem(name) as HTMLInputElement | null;
    setName(input('name')?.value ?? '');
    setEmail(input('email')?.value ?? '');
    setHasBook(input('hasBook')?.checked ?? false);
    setWebsite(input('website')?.value ?? '');
  }, [setName, setEmail, setHasBook, setWebsite]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submit();
  };

  // The submit button was disabled while the dialog opened, so the browser may not know where
  // focus was; send it back there explicitly, whichever way the dialog closes.
  const closeDialog = () => {
    form.closeErrorDetails();
    submitButton.current?.focus();
  };
  const tryAgain = () => {
    form.tryAgain();
    submitButton.current?.focus();
  };

  return (
    <>
      {/* Until the island has hydrated (or without JavaScript) the browser posts the form to the form
          route, which does the same two steps and redirects to a result page. */}
      <form
        ref={formElement}
        className="cheat-sheet-form"
        method="post"
        action={cheatSheetFormRoute}
        onSubmit={onSubmit}
        aria-describedby={describedBy}
      >
        <TextField
          id="cheat-sheet-name"
          name="name"
          label={formCopy.nameLabel}
          type="text"
          autoComplete="name"
          placeholder={formCopy.namePlaceholder}
          // Required alone lets a name of spaces through; the server would refuse it.
          pattern={'.*\\S.*'}
          title={formCopy.nameHint}
          maxLength={maxNameLength}
          value={form.name}
          onChange={form.setName}
        />
        <TextField
          id="cheat-sheet-email"
          name="email"
          label={formCopy.emailLabel}
          type="email"
          autoComplete="email"
          placeholder={formCopy.emailPlaceholder}
          maxLength={maxEmailLength}
          value={form.email}
          onChange={form.setEmail}
        />
        {/* The honeypot: off-screen, hidden from screen readers and the Tab key, unlabelled. People
            never fill it in; scripts that fill every field do, and the API (either way in) then sends nothing. */}
        <div className="form-honeypot" aria-hidden="true">
          <input
            type="text"
            name="website"
            tabIndex={-1}
            autoComplete="off"
            value={form.website}
            onChange={(event) => form.setWebsite(event.target.value)}
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
        <p className="form-privacy-notice">
          {formPrivacyNotice.text} <a href={privacyPath}>{formPrivacyNotice.linkText}</a>
        </p>
      </form>
      <ErrorDetailsDialog details={form.errorDetails} onClose={closeDialog} onTryAgain={tryAgain} />
    </>
  );
}
