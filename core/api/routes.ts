/**
 * The HTTP API's routes, the same locally and behind CloudFront (`docs/openapi.yaml` describes
 * them). The page calls them, the CDK stack and the local twin route them to the functions.
 */

export const apiRoutes = {
  /** `POST {name, email}` → `201 {id}`: records a cheat-sheet request. */
  saveRequest: '/api/cheat-sheet-requests',
  /** `POST {name, email}` → `200 {success: true, message}`: e-mails the cheat sheet. */
  sendCheatSheet: '/api/send-cheat-sheet',
} as const;

/**
 * `POST name=…&email=…&hasBook=on` (`application/x-www-form-urlencoded`) → `303` to a result page
 * (`core/site-pages.ts`): the form's own `action`, for when its script is off or not loaded yet.
 * The same two steps as the JSON routes (save, then send), as a browser submits a form.
 */
export const cheatSheetFormRoute = '/api/cheat-sheet-form';

/**
 * `GET` → `200`, a 1×1 transparent GIF, never cached: the landing page's beacon (an `<img>` in its
 * HTML, so readers without JavaScript count too), which counts a visit to `/` in the funnel.
 */
export const visitBeaconRoute = '/api/visit';

/** Everything under it goes to the API, never to the site's files. */
export const apiPathPrefix = '/api/';
