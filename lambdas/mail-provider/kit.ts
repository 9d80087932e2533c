/**
 * Kit (formerly ConvertKit), API v4, authenticated with `X-Kit-Api-Key`. A hand-off is two calls,
 * each an upsert: `POST /v4/subscribers` creates the subscriber or updates its first name, then
 * `POST /v4/forms/{id}/subscribers` adds it to the author's form by address (200 when it is
 * there already, and a double opt-in form sends its confirmation once). The subscriber is created
 * `inactive`, so the form's own opt-in decides (Kit's API reference: adding subscribers to a double
 * opt-in form sends its incentive e-mail, and the reader becomes active on confirming), or
 * `active` when the deployment turns double opt-in off. Kit's API deletes no
 * subscriber: an erasure unsubscribes it, and the author deletes it in Kit.
 */

import { callProvider, callsInTurn, type ProviderRequest } from './provider-call';
import type { Lead, MailProviderClient, MailProviderSettings, RemovalAnswer } from './lead';

export const kitApiUrl = 'https://api.kit.com';

export function kitClient(settings: MailProviderSettings): MailProviderClient {
  const base = settings.baseUrl ?? kitApiUrl;
  const form = encodeURIComponent(settings.list ?? '');
  const headers = { 'content-type': 'application/json', 'x-kit-api-key': settings.key };
  return {
    provider: 'kit',
    handOff(lead: Lead) {
      const requests: ProviderRequest[] = [
        {
          method: 'POST',
          url: `${base}/v4/subscribers`,
          headers,
          timeoutMs: settings.timeoutMs,
          body: JSON.stringify({
            email_address: lead.email,
            first_name: lead.name,
            state: settings.doubleOptIn === false ? 'active' : 'inactive',
          }),
        },
        {
          method: 'POST',
          url: `${base}/v4/forms/${form}/subscribers`,
          headers,
          timeoutMs: settings.timeoutMs,
          body: JSON.stringify({ email_address: lead.email }),
        },
      ];
      return callsInTurn(requests);
    },
    async remove(email: string): Promise<RemovalAnswer> {
      const authorMust = "Kit's API cannot delete a subscriber: delete the address in Kit (Subscribers, then Delete).";
      try {
        const found = await callProvider({
          method: 'GET',
          url: `${base}/v4/subscribers?email_address=${encodeURIComponent(email)}&status=all`,
          headers,
          timeoutMs: settings.timeoutMs,
        });
        if (found.status !== 200) return { kind: 'failed', detail: `Kit: looking it up answered HTTP ${found.status}` };
        const ids = ((JSON.parse(found.text) as { subscribers?: { id?: unknown }[] }).subscribers ?? [])
          .map(({ id }) => id)
          .filter((id): id is number | string => typeof id === 'number' || typeof id === 'string');
        if (ids.length === 0) return { kind: 'absent', detail: 'Kit holds no subscriber of that address' };
        for (const id of ids) {
          const answer = await callProvider({
            method: 'POST',
            url: `${base}/v4/subscribers/${encodeURIComponent(String(id))}/unsubscribe`,
            headers,
            timeoutMs: settings.timeoutMs,
            body: '{}',
          });
          if (answer.status >= 300 && answer.status !== 404) {
            return { kind: 'failed', detail: `Kit: unsubscribing answered HTTP ${answer.status}`, authorMust };
          }
        }
        return { kind: 'unsubscribed', detail: 'Kit: unsubscribed', authorMust };
      } catch (error) {
        return { kind: 'failed', detail: `Kit: no answer (${(error as Error).name})`, authorMust };
      }
    },
  };
}
