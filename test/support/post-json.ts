import { expectDocumentedResponse } from './openapi';

/** Posts a JSON body to a running server's API, as the page does; a reply docs/openapi.yaml does not describe fails. */
export async function postJson(
  url: string | URL,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  await expectDocumentedResponse('POST', response);
  return response;
}
