/**
 * Turns the form's own POST (`application/x-www-form-urlencoded`, as a browser sends it) into
 * the same validated request the JSON routes take, plus the checkbox. Refusals are the typed
 * errors `http-reply.ts` maps, with the JSON routes' limits: POST only, at most 10 KB, UTF-8, the
 * request schema (honeypot included).
 */

import { ProductError } from '../runtime/errors';
import { isContentType, readBodyText, refuseOtherMethods, type ApiRequest } from '../http/http-request';
import { productRoutes } from '../../core/api/catalogue/routes';
import { formContentType, hasBookTicked, mailingListTicked } from '../../core/api/form-replies';
import { crossSiteFormMessage, formNotUrlencodedMessage } from '../../core/api/messages';
import { parseCheatSheetRequest, type CheatSheetRequest } from '../../core/api/request-schema';

export interface CheatSheetForm {
  /** `{name, email, website?}`, validated by the schema the JSON routes use. */
  readonly request: CheatSheetRequest;
  /** 'I confirm that I have purchased the book' was ticked. */
  readonly hasBook: boolean;
}

/**
 * `same-origin` is the site's own page; `none` a visit the browser started itself. Browsers that
 * predate the header send none, and neither do non-browser clients (which need no forging).
 */
const trustedFetchSites = new Set(['same-origin', 'none']);

export function parseCheatSheetForm(request: ApiRequest): CheatSheetForm {
  refuseOtherMethods(request, productRoutes.submitForm);
  const { fetchSite } = request;
  if (fetchSite !== undefined && !trustedFetchSites.has(fetchSite)) {
    throw new ProductError('crossSiteRequest', crossSiteFormMessage);
  }
  if (!isContentType(request.contentType, formContentType)) {
    throw new ProductError('unsupportedMediaType', formNotUrlencodedMessage);
  }
  // URLSearchParams decodes as a browser encodes: '+' is a space, %XX are UTF-8 bytes. A repeated
  // field counts once (its first value), as an absent one counts as missing.
  const fields = new URLSearchParams(readBodyText(request.body));
  const parsed = parseCheatSheetRequest({
    name: fields.get('name') ?? undefined,
    email: fields.get('email') ?? undefined,
    website: fields.get('website') ?? undefined,
    // As the page sends it: the saved request then records the reader's consent.
    hasBook: fields.get('hasBook') === hasBookTicked,
    // The mailing-list box (offered only with a mail provider): absent unless the reader ticked it.
    mailingList: fields.get('mailingList') === mailingListTicked,
  });
  if (!parsed.success) throw new ProductError('invalidRequest', parsed.error);
  return { request: parsed.data, hasBook: parsed.data.hasBook === true };
}
