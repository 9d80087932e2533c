/**
 * Mailchimp Marketing API 3.0, HTTP basic authentication with the API key; the data centre is the
 * key's suffix (`…-us21` → us21.api.mailchimp.com). `PUT /lists/{audience}/members/{md5 of the
 * lower-cased address}` is naturally idempotent: it creates the member or updates its first name,
 * never a second member. A new member is `pending` (Mailchimp e-mails the reader to confirm: its
 * double opt-in, "Manage subscribers with the Mailchimp API" in its Marketing API guides), or
 * `subscribed` when the deployment turns double opt-in off; `status_if_new` leaves an existing
 * member's status alone. An erasure deletes the member permanently
 * (`POST …/actions/delete-permanent`).
 */

import { createHash } from 'node:crypto';
import { callProvider, callsInTurn, type ProviderAnswer } from './provider-call';
import type { Lead, MailProviderClient, MailProviderSettings, RemovalAnswer } from './lead';

/** The member's id in an audience: the MD5 of the lower-cased address (Mailchimp's subscriber hash). */
export function subscriberHash(email: string): string {
  return createHash('md5').update(email.toLowerCase()).digest('hex');
}

/** The data centre a key belongs to, or undefined when the key has none (then it is not a Mailchimp key). */
export function dataCentreOf(key: string): string | undefined {
  return /-([a-z]+\d+)$/.exec(key.trim())?.[1];
}

export function mailchimpClient(settings: MailProviderSettings): MailProviderClient {
  const dataCentre = dataCentreOf(settings.key);
  const base = settings.baseUrl ?? `https://${dataCentre ?? 'invalid'}.api.mailchimp.com`;
  const audience = encodeURIComponent(settings.list ?? '');
  const headers = {
    'content-type': 'application/json',
    authorization: `Basic ${Buffer.from(`author:${settings.key}`).toString('base64')}`,
  };
  const member = (email: string) => `${base}/3.0/lists/${audience}/members/${subscriberHash(email)}`;
  const noDataCentre: ProviderAnswer = {
    kind: 'stop',
    status: 401,
    reason: 'authentication',
    detail: 'the key names no data centre (a Mailchimp key ends in -us21 or the like)',
  };
  return {
    provider: 'mailchimp',
    handOff(lead: Lead) {
      if (dataCentre === undefined && settings.baseUrl === undefined) return Promise.resolve(noDataCentre);
      return callsInTurn([
        {
          method: 'PUT',
          url: member(lead.email),
          headers,
          timeoutMs: settings.timeoutMs,
          body: JSON.stringify({
            email_address: lead.email,
            status_if_new: settings.doubleOptIn === false ? 'subscribed' : 'pending',
            merge_fields: { FNAME: lead.name },
          }),
        },
      ]);
    },
    async remove(email: string): Promise<RemovalAnswer> {
      try {
        const answer = await callProvider({
          method: 'POST',
          url: `${member(email)}/actions/delete-permanent`,
          headers,
          timeoutMs: settings.timeoutMs,
          body: '{}',
        });
        if (answer.status === 404) return { kind: 'absent', detail: 'Mailchimp holds no member of that address' };
        if (answer.status >= 300) {
          return { kind: 'failed', detail: `Mailchimp: deleting it answered HTTP ${answer.status}` };
        }
        return { kind: 'removed', detail: 'Mailchimp: deleted permanently' };
      } catch (error) {
        return { kind: 'failed', detail: `Mailchimp: no answer (${(error as Error).name})` };
      }
    },
  };
}
