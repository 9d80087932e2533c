import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import {
  newSubmissionKey,
  saveCheatSheetRequest,
  sendCheatSheet,
  type CheatSheetRequest,
  type SendOutcome,
  type SubmissionKey,
} from '../api/cheat-sheet-api';
import {
  defaultSendFailure,
  isDomainVerificationMessage,
  retryDelayMs,
  toasts,
  unknownError,
  type ToastCopy,
} from '../../../core/content/messages';

export type FormStatus = 'idle' | 'submitting' | 'success' | 'error';

/** What the 'Error Details' dialog shows: the technical text, and the toast it came with. */
export interface ErrorDetails {
  readonly technical: string;
  readonly toast: ToastCopy;
}

export interface CheatSheetFormState {
  readonly name: string;
  readonly email: string;
  readonly hasBook: boolean;
  /** The honeypot's value: people never see the field, so it stays empty for them. */
  readonly website: string;
  readonly status: FormStatus;
  /** The open 'Error Details' dialog's content; null when it is closed. */
  readonly errorDetails: ErrorDetails | null;
  /** Sending failed because the sender's domain is not verified: show the inline alert. */
  readonly emailConfigError: boolean;
  readonly setName: (name: string) => void;
  readonly setEmail: (email: string) => void;
  readonly setHasBook: (hasBook: boolean) => void;
  readonly setWebsite: (website: string) => void;
  readonly submit: () => Promise<void>;
  readonly closeErrorDetails: () => void;
  /** Closes the dialog and submits again after the spec's delay. */
  readonly tryAgain: () => void;
}

interface Failure {
  readonly toast: ToastCopy;
  /** The dialog's technical text; null shows the inline alert instead. */
  readonly technical: string | null;
}

/** The spec's error catalogue: what each outcome of the send call shows. */
function failureFor(outcome: SendOutcome): Failure | null {
  switch (outcome.kind) {
    case 'sent':
      return null;
    case 'function-error':
      return { toast: toasts.processingError, technical: `Edge function error: ${outcome.message || unknownError}` };
    case 'rejected': {
      const message = outcome.message ?? defaultSendFailure;
      if (isDomainVerificationMessage(message)) return { toast: toasts.domainError, technical: null };
      return { toast: toasts.processingError, technical: message };
    }
  }
}

function thrownFailure(error: unknown): Failure {
  const message = error instanceof Error ? error.message : String(error);
  return { toast: toasts.submissionFailed, technical: message || unknownError };
}

const showToast = (copy: ToastCopy, kind: 'success' | 'error') =>
  toast[kind](copy.title, { description: copy.description, duration: copy.duration });

/** The cheat-sheet form's fields and its idle → submitting → success | error state machine. */
export function useCheatSheetRequest(): CheatSheetFormState {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [hasBook, setHasBook] = useState(false);
  const [website, setWebsite] = useState('');
  const [status, setStatus] = useState<FormStatus>('idle');
  const [errorDetails, setErrorDetails] = useState<ErrorDetails | null>(null);
  const [emailConfigError, setEmailConfigError] = useState(false);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // submit() and Try Again's timer read the latest fields, whichever render created them.
  const latest = useRef({ name, email, hasBook, website });
  useEffect(() => {
    latest.current = { name, email, hasBook, website };
  }, [name, email, hasBook, website]);

  useEffect(() => () => clearTimeout(retryTimer.current), []);

  // One key per submission: kept for "Try Again" (and any resubmit of the same fields), replaced
  // after a success or when the fields change, so a retry never sends the cheat sheet twice.
  const submission = useRef<{ readonly key: SubmissionKey; readonly fields: string } | null>(null);
  const keyFor = (request: CheatSheetRequest): SubmissionKey => {
    const fields = JSON.stringify(request);
    if (submission.current?.fields !== fields) submission.current = { key: newSubmissionKey(), fields };
    return submission.current.key;
  };

  const submit = useCallback(async () => {
    const { name, email, hasBook, website } = latest.current;
    if (!hasBook) {
      showToast(toasts.verificationRequired, 'error');
      return;
    }
    const request: CheatSheetRequest = { name: name.trim(), email: email.trim(), website };
    setStatus('submitting');
    setEmailConfigError(false);
    setErrorDetails(null);

    const key = keyFor(request);
    await saveCheatSheetRequest(request, key);
    let failure: Failure | null;
    try {
      failure = failureFor(await sendCheatSheet(request, key));
    } catch (error) {
      failure = thrownFailure(error);
    }

    if (failure === null) {
      submission.current = null;
      showToast(toasts.sent, 'success');
      setName('');
      setEmail('');
      setHasBook(false);
      setWebsite('');
      setStatus('success');
      return;
    }
    showToast(failure.toast, 'error');
    setErrorDetails(failure.technical === null ? null : { technical: failure.technical, toast: failure.toast });
    setEmailConfigError(failure.technical === null);
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
    website,
    status,
    errorDetails,
    emailConfigError,
    setName,
    setEmail,
    setHasBook,
    setWebsite,
    submit,
    closeErrorDetails,
    tryAgain,
  };
}
