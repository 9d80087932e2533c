/**
 * A generic signed webhook, as the Standard Webhooks specification describes it: a JSON POST with
 * `webhook-id` (stable per lead: a retried delivery carries the same id, so the receiver keeps
 * one), `webhook-timestamp` (the attempt's, in seconds) and `webhook-signature` (`v1,` and the
 * HMAC-SHA256 of `id.timestamp.body` under the `whsec_…` secret), signed by the `standardwebhooks`
 * package, with which the receiver verifies it too. The body is the same on every attempt.
 */

import { Webhook } from 'standardwebhooks';
import { callProvider, callsInTurn } from './provider-call';
import type { Lead, MailProviderClient, MailProviderSettings, RemovalAnswer } from './lead';

/** The events the receiver gets. */
export const webhookEventTypes = { leadCreated: 'lead.created', leadErased: 'lead.erased' } as const;

/** The lead's `webhook-id`: the request's id, the same on every attempt. */
export const leadWebhookId = (lead: Pick<Lead, 'id'>) => `lead_${lead.id}`;

/** `double_opt_in`: whether the receiver should ask the reader to confirm before they join (the deployment's setting). */
export function leadCreatedBody(lead: Lead, doubleOptIn = true): string {
  return JSON.stringify({
    type: webhookEventTypes.leadCreated,
    timestamp: lead.requestedAt,
    data: {
      id: lead.id,
      name: lead.name,
      email: lead.email,
      requested_at: lead.requestedAt,
      consented_at: lead.consentedAt,
      double_opt_in: doubleOptIn,
    },
  });
}

export function signedWebhookClient(
  settings: MailProviderSettings,
  now: () => Date = () => new Date(),
): MailProviderClient {
  const url = settings.baseUrl ?? settings.webhookUrl ?? '';
  const signer = new Webhook(settings.key);
  const headersFor = (id: string, body: string) => {
    const at = now();
    return {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signer.sign(id, at, body),
    };
  };
  return {
    provider: 'webhook',
    handOff(lead: Lead) {
      const id = leadWebhookId(lead);
      const body = leadCreatedBody(lead, settings.doubleOptIn !== false);
      return callsInTurn([{ method: 'POST', url, headers: headersFor(id, body), body, timeoutMs: settings.timeoutMs }]);
    },
    async remove(email: string): Promise<RemovalAnswer> {
      const at = now();
      const id = `erase_${at.getTime()}`;
      const body = JSON.stringify({ type: webhookEventTypes.leadErased, timestamp: at.toISOString(), data: { email } });
      const authorMust =
        'The webhook only tells the receiving service: make sure it deleted the address (the lead.erased event).';
      try {
        const answer = await callProvider({
          method: 'POST',
          url,
          headers: headersFor(id, body),
          body,
          timeoutMs: settings.timeoutMs,
        });
        if (answer.status >= 300) {
          return { kind: 'failed', detail: `The webhook answered HTTP ${answer.status}`, authorMust };
        }
        return { kind: 'notified', detail: 'The webhook took the lead.erased event', authorMust };
      } catch (error) {
        return { kind: 'failed', detail: `The webhook: no answer (${(error as Error).name})`, authorMust };
      }
    },
  };
}
