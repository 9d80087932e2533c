/**
 * Every pre-rendered page the site serves with status 200: its path and the file that holds it.
 * The build renders each one (`frontend/build/prerender.ts`) and lists the indexable ones in
 * sitemap.xml, the local server serves it (`local/static-site.ts`) and CloudFront maps its path
 * to its file (a CloudFront Function made from this list, `infra/site-pages-function.ts`): a new
 * page is added here and nowhere else. The not-found page has no path of its own: it is
 * `notFoundFile`, served for every other path with 404.
 */

export interface SitePage {
  /** The URL path, e.g. `/privacy`. */
  readonly path: string;
  /** The file in the built site, e.g. `privacy.html`. */
  readonly file: string;
}

/** The privacy page (its text: core/content/privacy.ts). */
export const privacyPath = '/privacy';

/**
 * Where the form lands after a submit that its script did not handle (JavaScript off, or not
 * loaded yet): the form route (`lambdas/submit-form/`) answers 303 to one of these. One page per
 * outcome, so no field and no visitor text is ever in a URL.
 */
export const formResultPaths = {
  /** Saved and sent: 'Cheat Sheet Sent'. */
  sent: '/cheat-sheet/sent',
  /** The box was not ticked: 'Verification Required'; nothing saved or sent. */
  notConfirmed: '/cheat-sheet/not-confirmed',
  /** The e-mail service refused the sender as not verified: 'Domain Verification Error'. */
  emailConfigurationError: '/cheat-sheet/email-configuration-error',
  /** Sending failed for any other reason: 'Error Processing Request'. */
  notSent: '/cheat-sheet/not-sent',
} as const;

export type FormOutcome = keyof typeof formResultPaths;

/** `/privacy` is `privacy.html`, `/cheat-sheet/sent` is `cheat-sheet/sent.html`. */
const fileFor = (path: string) => `${path.replace(/^\//, '')}.html`;

// Marked pure so that a bundle importing only a path from here (the form's island) leaves the list out.
export const sitePages: readonly SitePage[] = /* @__PURE__ */ (() => [
  { path: '/', file: 'index.html' },
  { path: privacyPath, file: fileFor(privacyPath) },
  ...Object.values(formResultPaths).map((path) => ({ path, file: fileFor(path) })),
])();

/** The page every path that is not in `sitePages` gets, with status 404. */
export const notFoundFile = '404.html';

/**
 * The page served at a path, if the site has one there: at its path, or at its file's own path
 * (`/privacy.html`), which S3 and the local server serve as a file anyway.
 */
export function sitePageAt(path: string): SitePage | undefined {
  return sitePages.find((page) => page.path === path || `/${page.file}` === path);
}

/** The form outcome whose result page is at a path, if it is one. */
export function formOutcomeAt(path: string): FormOutcome | undefined {
  return (Object.keys(formResultPaths) as FormOutcome[]).find((outcome) => formResultPaths[outcome] === path);
}
