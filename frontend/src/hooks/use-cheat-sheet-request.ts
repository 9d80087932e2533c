import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import {
  saveCheatSheetRequest,
  sendCheatSheet,
  type CheatSheetRequest,
  type SendOutcome,
} from '../api/cheat-sheet-api';
import {
  defaultSendFailure,
  retryDelayMs,
  toasts,
  unknownError,
  type ToastCopy,
} from '../content/messages';

export type FormStatus = 'idle' | 'submitting' | 'success' | 'error';

export interface CheatSheetFormState {
  readonly name: string;
  readonly email: string;
  readonly hasBook: boolean;
  readonly status: FormStatus;
  /** The technical text of the open 'Error Details' dialog; null when it is closed. */
  readonly errorDetails: string | null;
  /** Sending failed because the sender's domain is not verified: show the inline alert. */
  readonly emailConfigError: boolean;
  readonly setName: (name: string) => void;
  readonly setEmail: (email: string) => void;
  readonly setHasBook: (hasBook: boolean) => void;
  readonly submit: () => Promise<void>;
  readonly closeErrorDetails: () => void;
  /** Closes the dialog and submits again after the spec's delay. */
  readonly tryAgain: () => void;
}

const showError = (copy: ToastCopy) =>
  toast.error(copy.title, { description: copy.description, duration: copy.duration });

/** The domain/verification failure is keyed on these words, as the contract promises. */
const isDomainVerificationError = (message: string) => /domain|verify/i.test(message);

type Failure = { readonly details: string | null; readonly emailConfigError: boolean };

/** Maps the send function's outcome to the spec's error catalogue; null means success. */
function failureFor(outcome: SendOutcome): Failure | null {
  switch (outcome.kind) {
    case 'sent':
      return null;
    case 'function-error':
      showError(toasts.processingError);
      return { details: `Edge function error: ${outcome.message ?? unknownError}`, emailConfigError: false };
    case 'rejected': {
      const message = outcome.message ?? defaultSendFailure;
      if (isDomainVerificationError(message)) {
        showError(toasts.domainError);
        return { details: null, emailConfigError: true };
      }
      showError(toasts.processingError);
      return { details: message, emailConfigError: false };
    }
  }
}

/** The cheat-sheet form's fields and its idle → submitting → success | error state machine. */
export function useCheatSheetRequest(): CheatSheetFormState {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [hasBook, setHasBook] = useState(false);
  const [status, setStatus] = useState<FormStatus>('idle');
  const [errorDetails, setErrorDetails] = useState<string | null>(null);
  const [emailConfigError, setEmailConfigError] = useState(false);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Try Again reads the latest fields, whatever render scheduled it.
  const latest = useRef({ name, email, hasBook });
  latest.current = { name, email, hasBook };

  useEffect(() => () => clearTimeout(retryTimer.current), []);

  const submit = useCallback(async () => {
    const { name, email, hasBook } = latest.current;
    if (!hasBook) {
      toast.error(toasts.verificationRequired.title, {
        description: toasts.verificationRequired.description,
      });
      return;
    }
    const request: CheatSheetRequest = { name: name.trim(), email: email.trim() };
    setStatus('submitting');
    setEmailConfigError(false);
    setErrorDetails(null);

    await saveCheatSheetRequest(request);
    let failure: Failure | null;
    try {
      failure = failureFor(await sendCheatSheet(request));
    } catch (error) {
      showError(toasts.submissionFailed);
      failure = { details: error instanceof Error ? error.message : String(error), emailConfigError: false };
    }

    if (failure === null) {
      toast.success(toasts.sent.title, { description: toasts.sent.description });
      setName('');
      setEmail('');
      setHasBook(false);
      setStatus('success');
      return;
    }
    setErrorDetails(failure.details);
    setEmailConfigError(failure.emailConfigError);
    setStatus('error');
  }, []);

  const closeErrorDetails = useCallback(() => setErrorDetails(null), []);

  const tryAgain = useCallback(() => {
    setErrorDetails(null);
    clearTimeout(retryTimer.current);
    retryTimer.current = setTimeout(() => void submit(), retryDelayMs);
  }, [submit]);

  return {
    name,
    email,
    hasBook,
    status,
    errorDetails,
    emailConfigError,
    setName,
    setEmail,
    setHasBook,
    submit,
    closeErrorDetails,
    tryAgain,
  };
}
