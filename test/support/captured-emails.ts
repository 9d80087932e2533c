/**
 * What aws-ses-v2-local captured, read from its store (`GET <Mail>/store`), for every test that
 * checks an e-mail: the handler tests, the local twin's and the browser's.
 */

export interface CapturedEmail {
  readonly from: string;
  readonly destination: { readonly to: string[]; readonly cc: string[]; readonly bcc: string[] };
  readonly subject: string;
  readonly body: { readonly html?: string; readonly text?: string };
  /** `content` is base64, as stored; `attachmentBytes` decodes it. */
  readonly attachments: { readonly content: string; readonly contentType: string; readonly filename?: string }[];
  readonly headers?: { readonly name: string; readonly value: string }[];
}

/** Every captured e-mail, or only those addressed to `to`. */
export async function capturedEmails(mailUrl: string, to?: string): Promise<CapturedEmail[]> {
  const response = await fetch(new URL('store', mailUrl));
  const { emails = [] } = (await response.json()) as { emails?: CapturedEmail[] };
  return to === undefined ? emails : emails.filter((email) => email.destination.to.includes(to));
}

export function attachmentBytes(attachment: CapturedEmail['attachments'][number]): Buffer {
  return Buffer.from(attachment.content, 'base64');
}
