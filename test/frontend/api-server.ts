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

/** The `X-Cheat-Sheet-Proof` of each of those requests, in the same order (null when it had none). */
export const proofHeaders: Array<string | null> = [];

/** How many challenges the page fetched (`GET /api/cheat-sheet-challenge`, not among `calls`). */
export const challengeFetches = { count: 0 };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
  idempotencyKeys.length = 0;
  proofHeaders.length = 0;
  challengeFetches.count = 0;
});
afterAll(() => server.close());

type Reply = () => Response | Promise<Response>;

function route(path: string, reply: Reply) {
  return http.post(path, async ({ request }) => {
    calls.push({ path, body: await request.json() });
    idempotencyKeys.push(request.headers.get('idempotency-key'));
    proofHeaders.push(request.headers.get('x-cheat-sheet-proof'));
    return reply();
  });
}

export const json =
  (body: JsonBodyType, status = 200): Reply =>
  () =>
    HttpResponse.json(body, { status });

/**
 * The routes answer as the caller says; by default both succeed, and the challenge route says the
 * send needs no proof of work (as `npm start` runs by default).
 */
export function backendReplies({
  save = json({ id: 'request-1' }, 201),
  send = json({ success: true, message: 'Cheat sheet sent' }),
  challenge = json({ required: false }),
}: { save?: Reply; send?: Reply; challenge?: Reply } = {}) {
  server.use(
    route('/api/cheat-sheet-requests', save),
    route('/api/send-cheat-sheet', send),
    http.get('/api/cheat-sheet-challenge', () => {
      challengeFetches.count += 1;
      return challenge();
    }),
  );
}

export const networkError: Reply = () => HttpResponse.error();
