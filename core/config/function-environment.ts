/**
 * The functions' configuration: the names of their environment variables and the defaults of
 * their limits, written down once. The CDK stack and the local twin build each function's
 * environment with the builders below; the functions read it back by the same names
 * (`lambdas/runtime/config.ts`). Endpoints are not configured here: the AWS SDK reads
 * `AWS_ENDPOINT_URL_DYNAMODB`, `_S3` and `_SESV2` itself.
 */

/** The save function's variables. */
export const saveRequestVariables = {
  tableName: 'TABLE_NAME',
  /** Days a request is kept before DynamoDB's TTL deletes it; unset keeps it. */
  requestRetentionDays: 'REQUEST_RETENTION_DAYS',
  /** The saves' rolling counters live with the sends' (the send function's name for it). */
  limitCountersTableName: 'SEND_QUOTA_TABLE_NAME',
  clientHourlySaveCap: 'CHEAT_SHEET_CLIENT_HOURLY_SAVE_LIMIT',
  networkHourlySaveCap: 'CHEAT_SHEET_NETWORK_HOURLY_SAVE_LIMIT',
  /** The idempotency keys' records; unset uses `cheat_sheet_idempotency`, the local twin's name. */
  idempotencyTableName: 'IDEMPOTENCY_TABLE_NAME',
  /** As the send function's: which address identifies a client. */
  clientAddressSource: 'CLIENT_ADDRESS_SOURCE',
  clientAddressKey: 'CLIENT_ADDRESS_KEY',
  originSecretArn: 'ORIGIN_SECRET_ARN',
  /** The author's mail provider (`mailProvider`), which each request's consent record names; unset: none. */
  mailProvider: 'MAIL_PROVIDER',
} as const;

/**
 * The weekly digest function's variables (set by infra/constructs/event-functions.ts). `leads export
 * --mail` reads `AUTHOR_EMAIL` from the deployed function: no stack output holds the author's address.
 */
export const leadDigestVariables = {
  tableName: 'TABLE_NAME',
  /** The limit counters' table, as the send function names it: the funnel's day counts live there. */
  limitCountersTableName: 'SEND_QUOTA_TABLE_NAME',
  senderEmail: 'SENDER_EMAIL',
  authorEmail: 'AUTHOR_EMAIL',
  configurationSetName: 'SES_CONFIGURATION_SET_NAME',
} as const;

/** The send function's variables. */
export const sendCheatSheetVariables = {
  tableName: 'TABLE_NAME',
  /** The limits' counters (per address, per client, the daily send budget); the name predates the two rolling ones. */
  limitCountersTableName: 'SEND_QUOTA_TABLE_NAME',
  cheatSheetBucket: 'CHEAT_SHEET_BUCKET',
  cheatSheetKey: 'CHEAT_SHEET_KEY',
  senderEmail: 'SENDER_EMAIL',
  addressDailyCap: 'CHEAT_SHEET_DAILY_LIMIT',
  clientHourlySendCap: 'CHEAT_SHEET_CLIENT_HOURLY_LIMIT',
  networkHourlySendCap: 'CHEAT_SHEET_NETWORK_HOURLY_LIMIT',
  dailySendBudget: 'CHEAT_SHEET_DAILY_SEND_BUDGET',
  /** As the save function's: the idempotency keys' records, `cheat_sheet_idempotency` when unset. */
  idempotencyTableName: 'IDEMPOTENCY_TABLE_NAME',
  /** Which address identifies a client: one of `clientAddressSources`. */
  clientAddressSource: 'CLIENT_ADDRESS_SOURCE',
  /** Local runs only: the key of the clients' counters (a fresh random one per `npm start`). */
  clientAddressKey: 'CLIENT_ADDRESS_KEY',
  /** Behind CloudFront: the Secrets Manager secret CloudFront sends to the API, and the counters' key comes from. */
  originSecretArn: 'ORIGIN_SECRET_ARN',
  /** The SES configuration set the e-mail is sent through; none locally (the emulator has none). */
  configurationSetName: 'SES_CONFIGURATION_SET_NAME',
  /** `off` turns the recipient-domain check off; anything else (or unset) leaves it on. */
  recipientDomainCheck: 'CHEAT_SHEET_RECIPIENT_DOMAIN_CHECK',
  /** The check's DNS servers, comma-separated `host:port`; unset uses the system's. */
  dnsServers: 'DNS_SERVERS',
  /** `on` asks every JSON send for a solved proof of work (core/api/proof-of-work.ts); `off` or unset does not. */
  challenge: 'CHEAT_SHEET_CHALLENGE',
  /** Not read by the code: a new PDF changes it, so Lambda replaces warm containers holding the old one. */
  cheatSheetVersion: 'CHEAT_SHEET_VERSION',
  /** As the save function's: a send with no request to flag writes a request item of its own. */
  requestRetentionDays: 'REQUEST_RETENTION_DAYS',
  /** The send queue (SQS): a send SES's rate has no slot for is handed to it; unset, the send waits for its slot. */
  sendQueueUrl: 'SEND_QUEUE_URL',
} as const;

/** The queued sender's variables (lambdas/queued-send/): the send function's names for what it shares with it. */
export const queuedSendVariables = {
  tableName: sendCheatSheetVariables.tableName,
  limitCountersTableName: sendCheatSheetVariables.limitCountersTableName,
  cheatSheetBucket: sendCheatSheetVariables.cheatSheetBucket,
  cheatSheetKey: sendCheatSheetVariables.cheatSheetKey,
  senderEmail: sendCheatSheetVariables.senderEmail,
  configurationSetName: sendCheatSheetVariables.configurationSetName,
  cheatSheetVersion: sendCheatSheetVariables.cheatSheetVersion,
} as const;

/**
 * The challenge function's variables: whether the send asks for the proof of work, and the
 * deployment's secret its challenges are signed with (as the send function reads them).
 */
export const challengeVariables = {
  challenge: sendCheatSheetVariables.challenge,
  clientAddressSource: sendCheatSheetVariables.clientAddressSource,
  clientAddressKey: sendCheatSheetVariables.clientAddressKey,
  originSecretArn: sendCheatSheetVariables.originSecretArn,
} as const;

/**
 * The visit function's variables: the funnel's counts live in the limit counters' table, the day's
 * salt and visitor marks in a table no backup keeps, and the client's network (for the day's
 * visitor hash) comes from where the send function takes it.
 */
export const visitCountVariables = {
  limitCountersTableName: sendCheatSheetVariables.limitCountersTableName,
  /** `cheat_sheet_funnel_visitors` (core/data/tables.ts). */
  funnelVisitorsTableName: 'FUNNEL_VISITORS_TABLE_NAME',
  clientAddressSource: sendCheatSheetVariables.clientAddressSource,
  clientAddressKey: sendCheatSheetVariables.clientAddressKey,
  originSecretArn: sendCheatSheetVariables.originSecretArn,
} as const;

/**
 * Cheat sheets one address may receive in 24 hours: enough to re-send after a lost e-mail or a
 * typo, too few to make the form a way to flood one inbox.
 */
export const defaultAddressDailyCap = 3;

/**
 * Cheat sheets one client (one IPv4 address, or one IPv6 /64 network) may be sent in an hour,
 * whatever the addresses: a household or an office sharing one address sends a few, while a
 * script spraying addresses is stopped after 10 an hour (240 a day) instead of the stage
 * throttle's hundreds of thousands.
 */
export const defaultClientHourlySendCap = 10;

/**
 * Cheat sheets sent in an hour at the request of one network (an IPv4 /24, an IPv6 /48), whatever
 * its clients: three clients' worth, so an office or a carrier NAT behind one network still serves
 * several readers an hour, while an attacker rotating through the 256 (or 65,536) client addresses
 * of one network is held to 30 an hour instead of 10 per address.
 */
export const defaultNetworkHourlySendCap = 30;

/**
 * Requests one client may save in an hour: twice its send cap, since a reader may save, fix a typo
 * and save again; a script filling the author's lead export is stopped at 20 an hour.
 */
export const defaultClientHourlySaveCap = 20;

/** Requests one network may save in an hour: three clients' worth, as for sends (twice the network's send cap). */
export const defaultNetworkHourlySaveCap = 60;

/** Whether the recipient's domain is looked up before a send; `off` only where DNS cannot answer (local runs). */
export const recipientDomainCheckSettings = ['on', 'off'] as const;

/** The proof of work before a send: absent means off; the stack sets `on` unless `-c challenge=false`. */
export const challengeSettings = ['on', 'off'] as const;
export type ChallengeSetting = (typeof challengeSettings)[number];
export type RecipientDomainCheckSetting = (typeof recipientDomainCheckSettings)[number];

/**
 * Cheat sheets the whole product sends in 24 hours: a launch day by default, so no operator has to
 * remember to raise it. Twice a launch hour's 5,000 readers (core/config/launch-capacity.ts), so
 * the day after a launch still has room in the rolling 24 hours; below the 24-hour quota SES
 * commonly grants on production access (the preflight checks the account's). It still caps what
 * many clients spraying at once can do to the sender's reputation and the bill: 10,000 e-mails,
 * at most 3.49 USD at list price (docs/capacity.md), and a /24 alone sends at most 720 of them a day.
 * Raised from 500, which answered a launch's 501st reader 503 (docs/abuse.md, 'The daily send
 * budget'). The alarms on it (infra/constructs/monitoring/) read the same value.
 */
export const defaultDailySendBudget = 10_000;

/**
 * Where a function finds the visitor's address. `source-ip`: API Gateway's
 * `requestContext.http.sourceIp`, the TCP peer (the local twin passes its socket's address).
 * `cloudfront-viewer-address`: the `CloudFront-Viewer-Address` header, trusted only on a request
 * that carries the origin secret, i.e. that came through this stack's CloudFront distribution.
 */
export const clientAddressSources = ['source-ip', 'cloudfront-viewer-address'] as const;
export type ClientAddressSource = (typeof clientAddressSources)[number];

export interface SaveRequestSettings {
  readonly tableName: string;
  /** @default none: requests are kept until erased */
  readonly requestRetentionDays?: number;
  readonly limitCountersTableName: string;
  /** @default the function's own default, `defaultClientHourlySaveCap` */
  readonly clientHourlySaveCap?: number;
  /** @default the function's own default, `defaultNetworkHourlySaveCap` */
  readonly networkHourlySaveCap?: number;
  /** @default the function's own default, `cheat_sheet_idempotency` */
  readonly idempotencyTableName?: string;
  readonly clientAddressSource: ClientAddressSource;
  /** Required with `source-ip`. */
  readonly clientAddressKey?: string;
  /** Required with `cloudfront-viewer-address`. */
  readonly originSecretArn?: string;
  /** @default none: the consent record names no mail provider */
  readonly mailProvider?: string;
}

export interface SendCheatSheetSettings {
  readonly tableName: string;
  readonly limitCountersTableName: string;
  readonly cheatSheetBucket: string;
  readonly cheatSheetKey: string;
  readonly senderEmail: string;
  /** @default the function's own default, `defaultAddressDailyCap` */
  readonly addressDailyCap?: number;
  /** @default the function's own default, `defaultClientHourlySendCap` */
  readonly clientHourlySendCap?: number;
  /** @default the function's own default, `defaultNetworkHourlySendCap` */
  readonly networkHourlySendCap?: number;
  /** @default the function's own default, `defaultDailySendBudget` */
  readonly dailySendBudget?: number;
  /** @default the function's own default, `cheat_sheet_idempotency` */
  readonly idempotencyTableName?: string;
  /** @default on (unset) */
  readonly recipientDomainCheck?: RecipientDomainCheckSetting;
  /** @default none: the system's DNS servers */
  readonly dnsServers?: string;
  /** @default off (unset) */
  readonly challenge?: ChallengeSetting;
  readonly clientAddressSource: ClientAddressSource;
  /** Required with `source-ip`. */
  readonly clientAddressKey?: string;
  /** Required with `cloudfront-viewer-address`. */
  readonly originSecretArn?: string;
  /** @default none: SES's defaults, no event publishing */
  readonly configurationSetName?: string;
  /** @default none */
  readonly cheatSheetVersion?: string;
  /** @default none: requests are kept until erased */
  readonly requestRetentionDays?: number;
  /** @default none: a send waits for its slot of SES's rate instead of handing it to the queue */
  readonly sendQueueUrl?: string;
}

export interface QueuedSendSettings {
  readonly tableName: string;
  readonly limitCountersTableName: string;
  readonly cheatSheetBucket: string;
  readonly cheatSheetKey: string;
  readonly senderEmail: string;
  /** @default none: SES's defaults, no event publishing */
  readonly configurationSetName?: string;
  /** @default none */
  readonly cheatSheetVersion?: string;
}

export interface ChallengeSettings {
  /** @default off (unset) */
  readonly challenge?: ChallengeSetting;
  readonly clientAddressSource: ClientAddressSource;
  /** Required with `source-ip`. */
  readonly clientAddressKey?: string;
  /** Required with `cloudfront-viewer-address`. */
  readonly originSecretArn?: string;
}

export interface VisitCountSettings {
  readonly limitCountersTableName: string;
  readonly funnelVisitorsTableName: string;
  readonly clientAddressSource: ClientAddressSource;
  /** Required with `source-ip`. */
  readonly clientAddressKey?: string;
  /** Required with `cloudfront-viewer-address`. */
  readonly originSecretArn?: string;
}

type Environment = Record<string, string>;

function environmentOf<Names extends Record<string, string>>(
  names: Names,
  settings: Partial<Record<keyof Names, string | number | undefined>>,
): Environment {
  const environment: Environment = {};
  for (const [setting, variable] of Object.entries(names)) {
    const value = settings[setting as keyof Names];
    if (value !== undefined) environment[variable] = String(value);
  }
  return environment;
}

export function saveRequestEnvironment(settings: SaveRequestSettings): Environment {
  return environmentOf(saveRequestVariables, { ...settings });
}

export function sendCheatSheetEnvironment(settings: SendCheatSheetSettings): Environment {
  return environmentOf(sendCheatSheetVariables, { ...settings });
}

export function queuedSendEnvironment(settings: QueuedSendSettings): Environment {
  return environmentOf(queuedSendVariables, { ...settings });
}

/** The form function runs both steps: the save function's environment and the send function's together. */
export function submitFormEnvironment(save: SaveRequestSettings, send: SendCheatSheetSettings): Environment {
  return { ...saveRequestEnvironment(save), ...sendCheatSheetEnvironment(send) };
}

/** The challenge function's: the send function's switch and secret, nothing else. */
export function challengeEnvironment(settings: ChallengeSettings): Environment {
  return environmentOf(challengeVariables, { ...settings });
}

/** The visit function's: the counters' table, the funnel visitors' table and the client's address, nothing else. */
export function visitCountEnvironment(settings: VisitCountSettings): Environment {
  return environmentOf(visitCountVariables, { ...settings });
}
