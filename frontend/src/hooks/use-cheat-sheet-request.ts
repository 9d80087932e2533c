import { useRef, useState, type RefObject } from 'react';
import {
  newSubmissionKey,
  saveCheatSheetRequest,
  sendCheatSheet,
  type CheatSheetRequest,
  type SendOutcome,
  type SubmissionKey,
} from '../api/cheat-sheet-api';
import { proveWork } from '../api/proof-of-work';
import {
  defaultSendFailure,
  isDomainVerificationMessage,
  retryDelayMs,
  toasts as toastCopy,
  unknownError,
  type ToastCopy,
} from '../../../core/content/messages';
import type { ShownToast } from '../components/toasts';

/** What the 'Error Details' dialog shows: the technical text, and the toast it came with. */
export interface ErrorDetails {
  readonly technical: string;
  readonly toast: ToastCopy;
}

export interface CheatSheetFormState {
  /** True from a submit until its reply: the button reads 'Submitting...' and is disabled. */
  readonly submitting: boolean;
  /** The open 'Error Details' dialog's content; null when it is closed. */
  readonly errorDetails: ErrorDetails | null;
  /** Sending failed because the sender's domain is not verified: show the inline alert. */
  readonly emailConfigError: boolean;
  /** The toasts on screen, newest first. */
  readonly toasts: readonly ShownToast[];
  readonly dismissToast: (id: number) => void;
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
      return { toast: toastCopy.processingError, technical: `Edge function error: ${outcome.message || unknownError}` };
    case 'rejected': {
      const message = outcome.message ?? defaultSendFailure;
      if (isDomainVerificationMessage(message)) return { toast: toastCopy.domainError, technical: null };
      return { toast: toastCopy.processingError, technical: message };
    }
  }
}

function thrownFailure(error: unknown): Failure {
  const message = error instanceof Error ? error.message : String(error);
  return { toast: toastCopy.submissionFailed, technical: message || unknownError };
}

let lastToastId = 0;

/**
 * The cheat-sheet form's state: submitting, then sent (a toast, the fields emptied) or failed (a
 * toast, and the dialog or the inline alert). The fields stay the
 * browser's (it checks them, and keeps what was typed before the island hydrated): a submit reads
 * them from the form, a success resets it.
 */
export function useCheatSheetRequest(form: RefObject<HTMLFormElement | null>): CheatSheetFormState {
  const [submitting, setSubmitting] = useState(false);
  const [errorDetails, setErrorDetails] = useState<ErrorDetails | null>(null);
  const [emailConfigError, setEmailConfigError] = useState(false);
  const [toasts, setToasts] = useState<readonly ShownToast[]>([]);
  // Try Again's pending resubmit: a second Try Again replaces it. (The island is never unmounted,
  // so nothing else clears it.)
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // One key per submission: kept for "Try Again" (and any resubmit of the same fields), replaced
  // after a success or when the fields change, so a retry never sends the cheat sheet twice.
  const submission = useRef<{ readonly key: SubmissionKey; readonly fields: string } | null>(null);

  // Reads the fields and the refs only, so any render's copy does (Try Again's timer keeps one).
  const submit = async () => {
    const show = (copy: ToastCopy, kind: ShownToast['kind']) =>
      setToasts((shown) => [{ id: ++lastToastId, copy, kind }, ...shown]);
    const field = (name: string) => form.current?.elements.namedItem(name) as HTMLInputElement;
    if (!field('hasBook').checked) {
      show(toastCopy.verificationRequired, 'error');
      return;
    }
    const request: CheatSheetRequest = {
      name: field('name').value.trim(),
      email: field('email').value.trim(),
      website: field('website').value,
      // Offered only with a mail provider: without one the form has no such box.
      ...((form.current?.elements.namedItem('mailingList') as HTMLInputElement | null)?.checked === true && {
        mailingList: true,
      }),
    };
    setSubmitting(true);
    setEmailConfigError(false);
    setErrorDetails(null);

    const json = JSON.stringify(request);
    if (submission.current?.fields !== json) submission.current = { key: newSubmissionKey(), fields: json };
    const { key } = submission.current;
    // The send's proof of work, fetched and solved while the request is saved (a fresh one for
    // every submit, Try Again's too: each buys one send); its failure is the send's.
    const proof = proveWork();
    proof.catch(() => undefined);
    await saveCheatSheetRequest(request, key);
    let failure: Failure | null;
    try {
      const proven = await proof;
      failure = failureFor(proven.kind === 'proof' ? await sendCheatSheet(request, key, proven.header) : proven);
    } catch (error) {
      failure = thrownFailure(error);
    }

    setSubmitting(false);
    if (failure === null) {
      submission.current = null;
      show(toastCopy.sent, 'success');
      form.current?.reset();
      return;
    }
    show(failure.toast, 'error');
    setErrorDetails(failure.technical === null ? null : { technical: failure.technical, toast: failure.toast });
    setEmailConfigError(failure.technical === null);
  };

  return {
    submitting,
    errorDetails,
    emailConfigError,
    toasts,
    dismissToast: (id) => setToasts((shown) => shown.filter((toast) => toast.id !== id)),
    submit,
    closeErrorDetails: () => setErrorDetails(null),
    tryAgain: () => {
      setErrorDetails(null);
      clearTimeout(retryTimer.current);
      retryTimer.current = setTimeout(() => void submit(), retryDelayMs);
    },
  };
}
