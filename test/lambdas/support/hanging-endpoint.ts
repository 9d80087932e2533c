/** An HTTP endpoint that accepts every request and never answers: a stalled AWS service. */

import http from 'node:http';

export interface HangingEndpoint {
  readonly url: string;
  /** Requests it received (each attempt of the SDK is one). */
  readonly requests: () => number;
  close(): Promise<void>;
}

export async function startHangingEndpoint(): Promise<HangingEndpoint> {
  let received = 0;
  const server = http.createServer(() => {
    received += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
