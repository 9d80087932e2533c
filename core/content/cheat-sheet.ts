/**
 * The cheat sheet: its request form's copy (fixed by the specification, but for the submit
 * button and the name hint) and the PDF's and e-mail's own words (content/cheat-sheet.yaml).
 */

import * as content from './generated/cheat-sheet';

export const downloadHeading = 'Get Your Free Business Operations Cheat Sheet';

export const downloadIntro = content.intro;

export const cheatSheetTitle = content.title;

/** The PDF's file name, as the e-mail attachment and in the S3 bucket. */
export const cheatSheetFileName = 'mpc-100-day-cheat-sheet.pdf';

export const firstWeekChecklist: readonly string[] = content.firstWeekChecklist;

/** The PDF's fill-in block: one question per area, in the order Money, People, Capacity. */
export const weeklyReview = content.weeklyReview;

/** The e-mail's sentence about what the PDF holds. */
export const emailSummary = content.emailSummary;

/**
 * The request form's version, recorded with each reader's consent (core/data/consent.ts): raise it
 * when what the form asks or says changes (its fields, its confirmation, its notice).
 */
export const cheatSheetFormVersion = '2';

/**
 * With a mail provider, the form's second box, unticked: the reader's own choice to join the
 * author's mailing list (content/cheat-sheet.yaml). Only readers who tick it are handed off.
 */
export const mailingListChoice = content.mailingListChoice;

export const formCopy = {
  nameLabel: 'Name',
  namePlaceholder: 'Your name',
  emailLabel: 'Email',
  /** Shown by the browser when the name is only spaces. */
  nameHint: 'Please enter your name.',
  emailPlaceholder: 'you@example.com',
  confirmLabel: 'I confirm that I have purchased the book',
  submitLabel: 'Send Me the Cheat Sheet',
  submittingLabel: 'Submitting...',
} as const;
