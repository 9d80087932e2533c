/** The cheat sheet: its request form's copy and the PDF's own content (which reuses the outline). */

export const downloadHeading = 'Get Your Free Business Operations Cheat Sheet';

export const downloadIntro =
  'A one-page summary of the MPC Framework: every phase, every area and a checklist for your first week. Free for readers of the book.';

export const cheatSheetTitle = 'MPC 100-Day Cheat Sheet';

/** The PDF's file name, as the e-mail attachment and in the S3 bucket. */
export const cheatSheetFileName = 'mpc-100-day-cheat-sheet.pdf';

export const firstWeekChecklist: readonly string[] = [
  'Get read-only access to every bank account, and review the last 12 months of statements.',
  'Meet each team member one to one and ask what they would change first.',
  'List your top five customers and call each of them this week.',
  'Write down every recurring process and who owns it.',
  'Set a weekly 30-minute review of cash, people and operations.',
];

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
