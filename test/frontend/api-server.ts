/**
 * The page's back end, faked at the network edge with msw: the page's real fetch calls go out
 * and these handlers answer them. Each test says how the two routes behave.
 */
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';

export const server = setupServer();

export interface RecordedCall {
  readonly path: string;
  readonly body: unknown;
}

/** Every request the page sent, in order. */
export const calls: RecordedCall[] = [];

/** The `Idempotency-Key` of each of those requests, in the same order (null when it had none). */
export const idempotencyKeys: Array<string | null> = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
  idempotencyKeys.length = 0;
});
afterAll(() => server.close());

type Reply = () => Response | Promise<Response>;

function route(path: string, reply: Reply) {
  return http.post(path, async ({ request }) => {
    calls.push({ path, body: await request.json() });
    idempotencyKeys.push(request.headers.get('idempotency-key'));
    return reply();
  });
}

export const json =
  (body: JsonBodyType, status = 200): Reply =>
  () =>
    HttpResponse.json(body, { status });

/** Both routes answer as the caller says; by default both succeed. */
export function backendReplies({
  save = json({ id: 'request-1' }, 201),
  send = json({ success: true, message: 'Cheat sheet sent' }),
}: { save?: Reply; send?: Reply } = {}) {
  server.use(route('/api/cheat-sheet-requests', save), route('/api/send-cheat-sheet', send));
}

export const networkError: Reply = () => HttpResponse.error();
