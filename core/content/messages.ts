/**
 * Every toast, alert and dialog text of the request form. Titles, descriptions and durations are
 * the spec's, word for word; the dialog's intro and suggestions put the spec's three hints in words.
 */

export interface ToastCopy {
  readonly title: string;
  readonly description: string;
  /** Milliseconds; undefined keeps the toast library's default. */
  readonly duration?: number;
}

export const toasts = {
  verificationRequired: {
    title: 'Verification Required',
    description: 'Please confirm that you have purchased the book',
  },
  sent: {
    title: 'Cheat Sheet Sent',
    description: "We've sent the cheat sheet to your email. Please check your inbox.",
  },
  processingError: {
    title: 'Error Processing Request',
    description: 'There was a problem sending your cheat sheet. See details for more information.',
  },
  domainError: {
    title: 'Domain Verification Error',
    description: 'The email could not be sent due to domain verification issues. Please contact support.',
    duration: 10_000,
  },
  submissionFailed: {
    title: 'Submission Failed',
    description: 'There was an error processing your request. Please try again.',
    duration: 8_000,
  },
} as const satisfies Record<string, ToastCopy>;

export const emailConfigAlert = {
  title: 'Email Configuration Error',
  description:
    'There was an issue sending your email. Our team has been notified. Please try again later or contact support if the issue persists.',
} as const;

export const errorDialog = {
  title: 'Error Details',
  intro: 'Something went wrong while sending your cheat sheet. You can:',
  suggestions: [
    'Try submitting the form again.',
    'Check that your email address is correct.',
    'Contact support if the problem persists.',
  ],
  technicalLabel: 'Technical details',
  close: 'Close',
  tryAgain: 'Try Again',
} as const;

/**
 * A send failure whose message says 'domain' or 'verify' is the sender's configuration, not the
 * visitor's: the catalogue shows 'Domain Verification Error' and the inline alert for it.
 */
export const isDomainVerificationMessage = (message: string) => /domain|verify/i.test(message);

export const defaultSendFailure = 'Failed to send cheat sheet. Please try again later.';

export const unknownError = 'Unknown error';

/** The delay before Try Again resubmits. */
export const retryDelayMs = 500;

/**
 * The generic fallback when rendering fails (the form's island is the one part rendered in the
 * browser). Here, with the form's other words, so that the island does not bring the site's copy.
 */
export const errorFallback = {
  title: 'Unexpected Application Error!',
} as const;
