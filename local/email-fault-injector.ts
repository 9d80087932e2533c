/**
 * A small HTTP endpoint in front of aws-ses-v2-local that, on demand, answers SESv2 calls with
 * the errors real SES gives (aws-ses-v2-local itself never fails), refuses SendEmail above the
 * account's rate as SES does (`SES_MAX_SEND_RATE`, and at random with `SES_RANDOM_THROTTLE`), and
 * answers GetAccount with that rate. With no fault set it passes every other request through unchanged. Errors use SESv2's REST-JSON shape: the type in
 * `x-amzn-ErrorType`, the text in `message`, so the SDK raises its real exception classes.
 */

import http from 'node:http';
import { closeServer, listen, type RunningServer, emulatorHost } from './emulators';

export type EmailFault =
  | 'unverified-sender'
  | 'unverified-mail-from-domain'
  /** The SES sandbox: the send role may not use the reader's identity (SES authorizes the recipient there). */
  | 'sandbox-recipient-not-authorized'
  /** The SES sandbox: the reader's address is not a verified identity. */
  | 'sandbox-recipient-not-verified'
  /** The configuration set's sending is paused (the pause function, after a bounce or complaint alarm). */
  | 'configuration-set-sending-paused'
  /** SES paused sending for the whole account. */
  | 'account-sending-paused'
  /** SESv2 refusing the recipient's address itself (400 BadRequestException "Illegal address"). */
  | 'illegal-recipient-address'
  /** SES refusing a recipient on a suppression list, naming it (MessageRejected). */
  | 'suppressed-recipient'
  /** SES refusing the message and naming the recipient as the reason, in no words of its address rules (MessageRejected). */
  | 'recipient-refused'
  | 'throttled'
  | 'internal-error';

/** The recipient the sandbox faults name: not the sender, as SES names the reader's address. */
export const sandboxRecipient = 'reader@example.net';

const faultResponses: Readonly<Record<EmailFault, { status: number; type: string; message: string }>> = {
  'unverified-sender': {
    status: 400,
    type: 'MessageRejected',
    message:
      'Email address is not verified. The following identities failed the check in region US-EAST-1: cheatsheet@example.com',
  },
  'sandbox-recipient-not-authorized': {
    status: 403,
    type: 'AccessDeniedException',
    message: `User \`arn:aws:sts::123456789012:assumed-role/SendCheatSheetRole/SendCheatSheet' is not authorized to perform \`ses:SendEmail' on resource \`arn:aws:ses:us-east-1:123456789012:identity/${sandboxRecipient}'`,
  },
  'sandbox-recipient-not-verified': {
    status: 400,
    type: 'MessageRejected',
    message: `Email address is not verified. The following identities failed the check in region US-EAST-1: ${sandboxRecipient}`,
  },
  'configuration-set-sending-paused': {
    status: 400,
    type: 'SendingPausedException',
    message: 'Sending is paused for this configuration set.',
  },
  'account-sending-paused': {
    status: 400,
    type: 'SendingPausedException',
    message: 'Sending is paused for this account.',
  },
  'unverified-mail-from-domain': {
    status: 400,
    type: 'MailFromDomainNotVerifiedException',
    message: 'The MAIL FROM domain is not verified.',
  },
  'illegal-recipient-address': { status: 400, type: 'BadRequestException', message: 'Illegal address' },
  'suppressed-recipient': {
    status: 400,
    type: 'MessageRejected',
    message: `Address blacklisted: ${sandboxRecipient}`,
  },
  'recipient-refused': {
    status: 400,
    type: 'MessageRejected',
    // `{recipient}` becomes the call's own To address.
    message: 'Message rejected: the recipient {recipient} was refused',
  },
  throttled: { status: 429, type: 'TooManyRequestsException', message: 'Too many requests.' },
  'internal-error': { status: 500, type: 'InternalFailure', message: 'An internal error occurred.' },
};

/** The first To address of a SendEmail body (SESv2's JSON), or an empty string. */
function recipientOf(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { Destination?: { ToAddresses?: string[] } };
    return parsed.Destination?.ToAddresses?.[0] ?? '';
  } catch {
    return '';
  }
}

export interface EmailFaultInjector extends RunningServer {
  /** Every following SES call fails this way, until set back to null. */
  setFault(fault: EmailFault | null): void;
}

/** How the local SES limits sending, as the account's quota and SES's own throttling would. */
export interface SesLimits {
  /**
   * `SES_MAX_SEND_RATE`: SendEmail calls accepted in any 1,000 ms; one more is refused as SES
   * refuses it (400 `TooManyRequestsException`, "Maximum sending rate exceeded."), and GetAccount
   * reports it as `SendQuota.MaxSendRate`.
   *
   * @default none: no limit, and GetAccount reports `unlimitedLocalSendRate`
   */
  readonly maxSendRate?: number;
  /**
   * `SES_RANDOM_THROTTLE`: the share (0 to 1) of SendEmail calls refused the same way at random,
   * whatever the rate: a sender must try them again itself.
   *
   * @default 0
   */
  readonly randomThrottle?: number;
}

/** What GetAccount reports with no `SES_MAX_SEND_RATE`: a rate no local run reaches. */
export const unlimitedLocalSendRate = 1000;

/** SES's refusal of a call above the account's rate (SESv2 TooManyRequestsException; its message as SES words it). */
const rateExceeded = { status: 400, type: 'TooManyRequestsException', message: 'Maximum sending rate exceeded.' };

/** GetAccount's answer: the sandbox's 200 a day lifted, the rate as set. */
function accountOf(maxSendRate: number) {
  return {
    ProductionAccessEnabled: true,
    SendingEnabled: true,
    EnforcementStatus: 'HEALTHY',
    SendQuota: { Max24HourSend: 50_000, MaxSendRate: maxSendRate, SentLast24Hours: 0 },
  };
}

export async function startEmailFaultInjector(
  targetUrl: string,
  port = 0,
  limits: SesLimits = {},
): Promise<EmailFaultInjector> {
  const target = new URL(targetUrl);
  let fault: EmailFault | null = null;
  /** When each SendEmail of the last second was let through. */
  const recentSends: number[] = [];
  const refusesByRate = (): boolean => {
    const now = Date.now();
    while (recentSends.length > 0 && recentSends[0] <= now - 1000) recentSends.shift();
    if (limits.randomThrottle && Math.random() < limits.randomThrottle) return true;
    if (limits.maxSendRate !== undefined && recentSends.length >= limits.maxSendRate) return true;
    recentSends.push(now);
    return false;
  };

  const server = http.createServer((request, response) => {
    if (request.method === 'GET' && request.url?.startsWith('/v2/email/account')) {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(accountOf(limits.maxSendRate ?? unlimitedLocalSendRate)));
      return;
    }
    const isSend = request.method === 'POST' && request.url?.startsWith('/v2/email/outbound-emails');
    const refusal = fault ? faultResponses[fault] : isSend && refusesByRate() ? rateExceeded : undefined;
    if (refusal) {
      const { status, type, message } = refusal;
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.writeHead(status, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': type });
        response.end(JSON.stringify({ message: message.replace('{recipient}', recipientOf(Buffer.concat(chunks))) }));
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
