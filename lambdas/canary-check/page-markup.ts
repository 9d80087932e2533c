/**
 * What a reader's browser needs from the landing page, read from its HTML as served: the book's
 * title heading pre-rendered, the form's markup (it posts to the form route without the page's
 * script), and the security headers. Shared by `npm run smoke` (ops/smoke/) and the canary.
 */

import { cheatSheetFormRoute } from '../../core/api/routes';
import { book } from '../../core/content/book';

/** A year: what a hashed asset's `max-age` and HSTS's `max-age` must reach at least. */
export const oneYearSeconds = 31_536_000;

export function maxAgeOf(header: string | null): number | undefined {
  const match = header?.match(/max-age=(\d+)/i);
  return match ? Number(match[1]) : undefined;
}

const entities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };

/** An element's text as a reader sees it: tags dropped, the entities a server render writes decoded. */
export const htmlText = (html: string) =>
  html.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) => entities[name] ?? '');

/** Whether the book's title heading is in the HTML itself, not added by a script. */
export function hasTitleHeading(html: string): boolean {
  const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1];
  return heading !== undefined && htmlText(heading).includes(book.title);
}

/** The form's markup: a POST to the form route holding the name, the address and the confirmation. */
export function formMarkupVerdict(html: string): { ok: boolean; detail: string } {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/.exec(html);
  if (!form) return { ok: false, detail: 'no form' };
  const [, attributes, inside] = form;
  const posts = /\bmethod="post"/i.test(attributes) && attributes.includes(`action="${cheatSheetFormRoute}"`);
  const missing = ['name', 'email', 'hasBook'].filter(
    (field) => !new RegExp(`<input\\b[^>]*name="${field}"`).test(inside),
  );
  const ok = posts && missing.length === 0;
  return {
    ok,
    detail: ok
      ? `form posts to ${cheatSheetFormRoute} with name, email and hasBook`
      : `${posts ? '' : `form does not post to ${cheatSheetFormRoute}; `}${missing.length ? `missing ${missing.join(', ')}` : ''}`.trim(),
  };
}

/** Whether a page carries the security headers: CSP, nosniff, frame denial, and HSTS (a year at least) on https. */
export function securityHeadersVerdict(headers: Headers, https: boolean): { ok: boolean; detail: string } {
  const csp = headers.get('content-security-policy');
  const frameOptions = headers.get('x-frame-options');
  const frameDenied = /^(deny|sameorigin)$/i.test(frameOptions ?? '') || /frame-ancestors\s+'none'/.test(csp ?? '');
  const sniffing = headers.get('x-content-type-options');
  const hstsMaxAge = maxAgeOf(headers.get('strict-transport-security'));
  const findings = [
    { ok: Boolean(csp?.includes('default-src')), text: csp ? 'CSP' : 'no CSP' },
    { ok: sniffing?.toLowerCase() === 'nosniff', text: sniffing ? `nosniff=${sniffing}` : 'no X-Content-Type-Options' },
    { ok: frameDenied, text: frameDenied ? 'framing denied' : 'framing allowed' },
    https
      ? {
          ok: hstsMaxAge !== undefined && hstsMaxAge >= oneYearSeconds,
          text: hstsMaxAge === undefined ? 'no HSTS' : `HSTS max-age=${hstsMaxAge}`,
        }
      : { ok: true, text: 'HSTS not required on http' },
  ];
  return { ok: findings.every((finding) => finding.ok), detail: findings.map((finding) => finding.text).join(', ') };
}
