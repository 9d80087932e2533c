/**
 * One HTTP call to a mail provider, and what its answer means for a hand-off: taken, worth
 * another attempt later, or not (Standard Webhooks' rules, which the providers' APIs share):
 *
 * - 2xx: accepted.
 * - 401 and 403: the key is wrong or lacks a right: stop (every later call would fail alike).
 * - 410 Gone: the list or the endpoint no longer exists: stop.
 * - 408, 409, 425, 429 and 5xx, a timeout, a refused connection: try again later, no sooner than
 *   `Retry-After` says.
 * - any other 4xx: the provider refuses this address: stop.
 */

export type ProviderAnswer =
  | { readonly kind: 'accepted'; readonly status: number }
  | {
      readonly kind: 'retry';
      readonly status?: number;
      /** The provider's `Retry-After`, in seconds. */
      readonly retryAfterSeconds?: number;
      readonly detail: string;
    }
  | {
      readonly kind: 'stop';
      readonly status: number;
      readonly reason: 'authentication' | 'gone' | 'rejected';
      readonly detail: string;
    };

/** How long one call may take before it counts as failed (and is tried again later). */
export const providerCallTimeoutMs = 10_000;

export interface ProviderRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Sent as it is (already JSON). */
  readonly body?: string;
  /** @default providerCallTimeoutMs */
  readonly timeoutMs?: number;
}

export interface ProviderResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** Sends the request with a timeout; a network failure or timeout throws. */
export async function callProvider(request: ProviderRequest): Promise<ProviderResponse> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: { accept: 'application/json', ...request.headers },
    body: request.body,
    signal: AbortSignal.timeout(request.timeoutMs ?? providerCallTimeoutMs),
    redirect: 'error',
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers, now: Date = new Date()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

const retryableStatuses = new Set([408, 409, 425, 429]);

/** A short, address-free description of an answer, for the logs and the item. */
function detailOf(response: ProviderResponse): string {
  return `HTTP ${response.status}`;
}

export function answerOf(response: ProviderResponse): ProviderAnswer {
  const { status } = response;
  if (status >= 200 && status < 300) return { kind: 'accepted', status };
  if (status === 401 || status === 403) {
    return { kind: 'stop', status, reason: 'authentication', detail: detailOf(response) };
  }
  if (status === 410) return { kind: 'stop', status, reason: 'gone', detail: detailOf(response) };
  if (retryableStatuses.has(status) || status >= 500) {
    const after = retryAfterSeconds(response.headers);
    return {
      kind: 'retry',
      status,
      detail: detailOf(response),
      ...(after !== undefined && { retryAfterSeconds: after }),
    };
  }
  return { kind: 'stop', status, reason: 'rejected', detail: detailOf(response) };
}

/** A call that threw: a timeout or a network failure, which another attempt may get past. */
export function answerOfError(error: unknown): ProviderAnswer {
  const name = error instanceof Error ? error.name : 'Error';
  return { kind: 'retry', detail: name === 'TimeoutError' ? 'no answer within the timeout' : `no answer (${name})` };
}

/** Calls in turn until one is not accepted; that answer, or the last one. */
export async function callsInTurn(requests: readonly ProviderRequest[]): Promise<ProviderAnswer> {
  let answer: ProviderAnswer = { kind: 'accepted', status: 200 };
  for (const request of requests) {
    try {
      answer = answerOf(await callProvider(request));
    } catch (error) {
      return answerOfError(error);
    }
    if (answer.kind !== 'accepted') return answer;
  }
  return answer;
}
