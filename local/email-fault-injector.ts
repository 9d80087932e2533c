/**
 * A small HTTP endpoint in front of aws-ses-v2-local that, on demand, answers SESv2 calls with
 * the errors real SES gives (aws-ses-v2-local itself never fails). With no fault set it passes
 * every request through unchanged. Errors use SESv2's REST-JSON shape: the type in
 * `x-amzn-ErrorType`, the text in `message`, so the SDK raises its real exception classes.
 */

import http from 'node:http';
import { closeServer, listen, type RunningServer, emulatorHost } from './emulators';

export type EmailFault = 'unverified-sender' | 'unverified-mail-from-domain' | 'throttled' | 'internal-error';

const faultResponses: Readonly<Record<EmailFault, { status: number; type: string; message: string }>> = {
  'unverified-sender': {
    status: 400,
    type: 'MessageRejected',
    message:
      'Email address is not verified. The following identities failed the check in region US-EAST-1: cheatsheet@example.com',
  },
  'unverified-mail-from-domain': {
    status: 400,
    type: 'MailFromDomainNotVerifiedException',
    message: 'The MAIL FROM domain is not verified.',
  },
  throttled: { status: 429, type: 'TooManyRequestsException', message: 'Too many requests.' },
  'internal-error': { status: 500, type: 'InternalFailure', message: 'An internal error occurred.' },
};

export interface EmailFaultInjector extends RunningServer {
  /** Every following SES call fails this way, until set back to null. */
  setFault(fault: EmailFault | null): void;
}

export async function startEmailFaultInjector(targetUrl: string, port = 0): Promise<EmailFaultInjector> {
  const target = new URL(targetUrl);
  let fault: EmailFault | null = null;

  const server = http.createServer((request, response) => {
    if (fault) {
      const { status, type, message } = faultResponses[fault];
      request.resume();
      request.on('end', () => {
        response.writeHead(status, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': type });
        response.end(JSON.stringify({ message }));
      });
      return;
    }
    const forwarded = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (upstream) => {
        response.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(response);
      },
    );
    forwarded.on('error', () => {
      if (!response.headersSent) response.writeHead(502, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ message: 'SES emulator unreachable' }));
    });
    request.pipe(forwarded);
  });

  const actualPort = await listen(server, port, emulatorHost);
  return {
    port: actualPort,
    url: `http://${emulatorHost}:${actualPort}`,
    close: () => closeServer(server),
    setFault: (next) => {
      fault = next;
    },
  };
}
