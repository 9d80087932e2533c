/**
 * What the canary meets at the site's public address, in the rehearsal: a stand-in for the
 * distribution. `/` is the build's page with the security headers the distribution adds
 * (core/config/edge-headers.ts); `/api/*` goes to the route's function as an API Gateway event,
 * with the origin secret and the viewer's address CloudFront adds (as the origin request policy
 * does), and its reply goes back as is. Only `GET /` and the routes: what the canary asks for.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { productRouteList } from '../../core/api/catalogue/routes';
import { buildOutput } from '../../core/build-output';
import { originSecretHeader, securityHeaders, viewerAddressHeader } from '../../core/config/edge-headers';
import { toHttpApiEvent } from '../api-gateway-adapter';
import { emulatorHost } from '../emulators';

interface FunctionReply {
  readonly statusCode?: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly isBase64Encoded?: boolean;
}

export interface EdgeStandIn {
  readonly url: string;
  close(): Promise<void>;
}

export async function startEdgeStandIn(
  invoke: (name: string, event: unknown) => Promise<unknown>,
  originSecret: string,
): Promise<EdgeStandIn> {
  const server = http.createServer((request, response) => {
    void (async () => {
      const url = request.url ?? '/';
      const route = productRouteList.find((candidate) => candidate.path === url.split('?')[0]);
      if (route) {
        const event = toHttpApiEvent(
          {
            method: request.method ?? 'GET',
            url,
            headers: {
              ...request.headers,
              [originSecretHeader]: originSecret,
              [viewerAddressHeader]: '198.51.100.200:443',
            },
            body: await buffer(request),
            sourceIp: '130.176.0.1',
          },
          `${route.method} ${route.path}`,
        );
        const reply = ((await invoke(route.name, event)) ?? {}) as FunctionReply;
        const body = Buffer.from(reply.body ?? '', reply.isBase64Encoded ? 'base64' : 'utf8');
        response.writeHead(reply.statusCode ?? 200, reply.headers).end(body);
        return;
      }
      if (url === '/') {
        const page = await readFile(path.join(buildOutput.siteDirectory, 'index.html'));
        response.writeHead(200, { ...securityHeaders, 'content-type': 'text/html; charset=utf-8' }).end(page);
        return;
      }
      response.writeHead(404).end();
    })().catch((error: unknown) => {
      response.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, emulatorHost, resolve));
  return {
    url: `http://${emulatorHost}:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
