import { useRef, type FormEvent } from 'react';
import { maxEmailLength, maxNameLength } from '../../../core/api/request-limits';
import { cheatSheetFormRoute } from '../../../core/api/routes';
import { formCopy, mailingListChoice } from '../../../core/content/cheat-sheet';
import { formNoticeText } from '../../../core/content/mailing-list-notice';
import { formPrivacyNotice, privacyPath } from '../../../core/content/privacy';
import type { MailProvider } from '../../../core/data/mail-provider';
import { buildMailProvider } from '../mail-provider';
import { useCheatSheetRequest } from '../hooks/use-cheat-sheet-request';
import { EmailConfigAlert } from './email-config-alert';
import { ErrorDetailsDialog } from './error-details-dialog';
import { TextField } from './text-field';
import { Toasts } from './toasts';

export function CheatSheetForm({
  describedBy,
  mailProvider = buildMailProvider,
}: {
  readonly describedBy?: string;
  /** @default the build's MAIL_PROVIDER (src/mail-provider.ts) */
  readonly mailProvider?: MailProvider;
}) {
  const formElement = useRef<HTMLFormElement>(null);
  const form = useCheatSheetRequest(formElement);
  const submitButton = useRef<HTMLButtonElement>(null);
  const { submitting } = form;

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
        />
        <TextField
          id="cheat-sheet-email"
          name="email"
          label={formCopy.emailLabel}
          type="email"
          autoComplete="email"
          placeholder={formCopy.emailPlaceholder}
          maxLength={maxEmailLength}
        />
        {/* The honeypot: off-screen, hidden from screen readers and the Tab key, unlabelled. People
            never fill it in; scripts that fill every field do, and the API (either way in) then sends nothing. */}
        <div className="form-honeypot" aria-hidden="true">
          <input type="text" name="website" tabIndex={-1} autoComplete="off" />
        </div>
        <div className="field field--checkbox">
          <input id="cheat-sheet-has-book" name="hasBook" type="checkbox" />
          <label htmlFor="cheat-sheet-has-book">{formCopy.confirmLabel}</label>
        </div>
        {/* Only with a mail provider: the reader's own choice, unticked, to join the author's list.
            Without one, the form is exactly as the specification draws it. */}
        {mailProvider !== undefined && (
          <div className="field field--checkbox">
            <input id="cheat-sheet-mailing-list" name="mailingList" type="checkbox" />
            <label htmlFor="cheat-sheet-mailing-list">{mailingListChoice}</label>
          </div>
        )}
        {form.emailConfigError && <EmailConfigAlert />}
        <button ref={submitButton} type="submit" className="button button--primary button--block" disabled={submitting}>
          {submitting ? formCopy.submittingLabel : formCopy.submitLabel}
        </button>
        <p className="form-privacy-notice">
          {formNoticeText(formPrivacyNotice.text, mailProvider)} <a href={privacyPath}>{formPrivacyNotice.linkText}</a>
        </p>
      </form>
      <ErrorDetailsDialog details={form.errorDetails} onClose={closeDialog} onTryAgain={tryAgain} />
      <Toasts toasts={form.toasts} onDismiss={form.dismissToast} />
    </>
  );
}
