/**
 * MailerLite (its current API, connect.mailerlite.com), authenticated with a bearer token.
 * `POST /api/subscribers` with the group is an upsert by address: it creates the subscriber or
 * updates it, and adds the group. The subscriber is `unconfirmed`, so MailerLite e-mails the
 * reader to confirm (its double opt-in for API subscribers, switched on in MailerLite's subscribe
 * settings), or `active` with the time of the reader's consent when the deployment turns double
 * opt-in off. An erasure finds the subscriber by address and asks MailerLite
 * to forget it (`POST /api/subscribers/{id}/forget`: its GDPR deletion, which also removes it from
 * every group).
 */

import { callProvider, callsInTurn } from './provider-call';
import type { Lead, MailProviderClient, MailProviderSettings, RemovalAnswer } from './lead';

export const mailerLiteApiUrl = 'https://connect.mailerlite.com';

export function mailerLiteClient(settings: MailProviderSettings): MailProviderClient {
  const base = settings.baseUrl ?? mailerLiteApiUrl;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${settings.key}` };
  return {
    provider: 'mailerlite',
    handOff(lead: Lead) {
      return callsInTurn([
        {
          method: 'POST',
          url: `${base}/api/subscribers`,
          headers,
          timeoutMs: settings.timeoutMs,
          body: JSON.stringify({
            email: lead.email,
            fields: { name: lead.name },
            groups: settings.list ? [settings.list] : [],
            ...(settings.doubleOptIn === false
              ? { status: 'active', opted_in_at: lead.consentedAt.slice(0, 19).replace('T', ' ') }
              : { status: 'unconfirmed' }),
          }),
        },
      ]);
    },
    async remove(email: string): Promise<RemovalAnswer> {
      try {
        const found = await callProvider({
          method: 'GET',
          url: `${base}/api/subscribers/${encodeURIComponent(email)}`,
          headers,
          timeoutMs: settings.timeoutMs,
        });
        if (found.status === 404) return { kind: 'absent', detail: 'MailerLite holds no subscriber of that address' };
        if (found.status !== 200) {
          return { kind: 'failed', detail: `MailerLite: looking it up answered HTTP ${found.status}` };
        }
        const id = (JSON.parse(found.text) as { data?: { id?: unknown } }).data?.id;
        if (typeof id !== 'string' && typeof id !== 'number') {
          return { kind: 'failed', detail: 'MailerLite: its answer named no subscriber id' };
        }
        const forgotten = await callProvider({
          method: 'POST',
          url: `${base}/api/subscribers/${encodeURIComponent(String(id))}/forget`,
          headers,
          timeoutMs: settings.timeoutMs,
          body: '{}',
        });
        if (forgotten.status === 404)
          return { kind: 'absent', detail: 'MailerLite holds no subscriber of that address' };
        if (forgotten.status >= 300) {
          return { kind: 'failed', detail: `MailerLite: forgetting it answered HTTP ${forgotten.status}` };
        }
        return { kind: 'removed', detail: 'MailerLite: forgotten (deleted with its data)' };
      } catch (error) {
        return { kind: 'failed', detail: `MailerLite: no answer (${(error as Error).name})` };
      }
    },
  };
}
