/**
 * A stand-in endpoint that records every AWS call made through it and passes it on to an
 * emulator (or, for a service no emulator covers, answers `200` itself: `{}`, or what `answer` gives). The cold-start
 * measurement points a function's `AWS_ENDPOINT_URL_<SERVICE>` here to learn which SDK calls its
 * first invocation makes, so that its floor makes exactly those.
 */

import http from 'node:http';
import { buffer } from 'node:stream/consumers';
import { closeServer, emulatorHost, listen } from '../emulators';

/** One HTTP request an SDK client sent. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  /** `X-Amz-Target` of the JSON protocols (DynamoDB, Secrets Manager, SQS); absent for REST ones. */
  readonly target?: string;
  readonly body: Buffer;
}

export interface RecordingProxy {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Listens on a free loopback port; each request goes to `record` (in the order they arrive, so
 * proxies of several services can share one log), then to `target` (an emulator's URL).
 */
export async function startRecordingProxy(
  target: string | null,
  record: (request: RecordedRequest) => void,
  /** Which requests the target can answer; the others get `200 {}` (an operation the emulator lacks). */
  passes: (request: RecordedRequest) => boolean = () => true,
  /** The JSON body of a `200` the proxy gives itself. @default `{}` */
  answer: (request: RecordedRequest) => string = () => '{}',
): Promise<RecordingProxy> {
  const server = http.createServer((request, response) => {
    void buffer(request).then((body) => {
      const targetHeader = request.headers['x-amz-target'];
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        ...(typeof targetHeader === 'string' ? { target: targetHeader } : {}),
        body,
      };
      record(recorded);
      if (target === null || !passes(recorded)) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(answer(recorded));
        return;
      }
      const forwarded = http.request(
        new URL(request.url ?? '/', target),
        { method: request.method, headers: request.headers },
        (upstream) => {
          response.writeHead(upstream.statusCode ?? 502, upstream.headers);
          upstream.pipe(response);
        },
      );
      forwarded.on('error', (error) => response.destroy(error));
      forwarded.end(body);
    });
  });
  const port = await listen(server, 0, emulatorHost);
  return { url: `http://${emulatorHost}:${port}`, close: () => closeServer(server) };
}
