/**
 * The functions' configuration, from environment variables only; their names and defaults live
 * in `core/config/function-environment.ts`. Endpoints are not configured here: the AWS SDK reads
 * AWS_ENDPOINT_URL_DYNAMODB / _S3 / _SESV2 itself.
 */

import { posix } from 'node:path';
import {
  clientAddressSources,
  defaultClientHourlySendCap,
  defaultAddressDailyCap,
  defaultDailySendBudget,
  defaultNetworkHourlySendCap,
  defaultClientHourlySaveCap,
  defaultNetworkHourlySaveCap,
  queuedSendVariables,
  saveRequestVariables,
  sendCheatSheetVariables,
  visitCountVariables,
  type ClientAddressSource,
} from '../../core/config/function-environment';
import { idempotencyTableName } from '../../core/data/tables';
import { ProductError } from './errors';
import { isMailProvider, mailProviders, type MailProvider } from '../../core/data/mail-provider';

export interface SaveRequestConfig {
  readonly tableName: string;
  /** The idempotency keys' records (IDEMPOTENCY_TABLE_NAME, `cheat_sheet_idempotency` by default). */
  readonly idempotencyTableName: string;
}

export interface RequestRetention {
  /** Days before a request expires (DynamoDB TTL); undefined keeps it. */
  readonly requestRetentionDays?: number;
}

export interface SaveRequestFunctionConfig extends SaveRequestConfig, RequestRetention {
  /** The author's mail provider (MAIL_PROVIDER), which each consent record names; undefined: none. */
  readonly mailProvider?: MailProvider;
  /** The saves' rolling counters (the send function's limits table). */
  readonly limitCountersTableName: string;
  readonly clientHourlySaveCap: number;
  readonly networkHourlySaveCap: number;
  /** As the send function's: where the client's address comes from, and what keys its counters. */
  readonly clientAddress: ClientAddressSettings;
}

export interface SendCheatSheetConfig extends SaveRequestConfig, RequestRetention {
  /** The daily cap's own table (SEND_QUOTA_TABLE_NAME): the requests table holds requests only. */
  readonly limitCountersTableName: string;
  readonly bucket: string;
  readonly key: string;
  /** The PDF's file name in the e-mail: the last part of its object key. */
  readonly attachmentFileName: string;
  readonly senderEmail: string;
  readonly addressDailyCap: number;
  readonly clientHourlySendCap: number;
  readonly networkHourlySendCap: number;
  readonly dailySendBudget: number;
  /** Whether the recipient's domain is looked up before any limit is claimed (off only when set to `off`). */
  readonly recipientDomainCheck: boolean;
  /** Whether a JSON send must carry a solved proof of work (only when set to `on`). */
  readonly proofOfWork: boolean;
  /** The check's DNS servers (`host:port`); undefined uses the system's. */
  readonly dnsServers?: string;
  /** Where the client's address comes from, and what keys its counters. */
  readonly clientAddress: ClientAddressSettings;
  /** Sent as SendEmail's ConfigurationSetName; undefined sends with SES's defaults. */
  readonly configurationSetName?: string;
  /** The send queue; undefined: a send waits for its slot of SES's rate. */
  readonly sendQueueUrl?: string;
}

/** The queued sender's: what it sends and where it records it. */
export interface QueuedSendConfig {
  readonly tableName: string;
  readonly limitCountersTableName: string;
  readonly bucket: string;
  readonly key: string;
  readonly attachmentFileName: string;
  readonly senderEmail: string;
  readonly configurationSetName?: string;
}

export type ClientAddressSettings =
  /** Locally: the socket's address; the counters' key is given (random per `npm start`). */
  | { readonly source: Extract<ClientAddressSource, 'source-ip'>; readonly key: string }
  /** Behind CloudFront: the viewer address, proven by the secret, which also yields the key. */
  | { readonly source: Extract<ClientAddressSource, 'cloudfront-viewer-address'>; readonly originSecretArn: string };

type Env = Readonly<Record<string, string | undefined>>;

function required(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new ProductError('misconfigured', `Environment variable ${name} is not set`);
  return value;
}

/** A positive whole number from `name`, or `fallback` when it is unset. */
function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new ProductError('misconfigured', `${name} must be a positive integer`);
  return value;
}

function clientAddressSettings(env: Env): ClientAddressSettings {
  const names = sendCheatSheetVariables;
  const source = required(env, names.clientAddressSource);
  if (source === 'source-ip') return { source, key: required(env, names.clientAddressKey) };
  if (source === 'cloudfront-viewer-address') {
    return { source, originSecretArn: required(env, names.originSecretArn) };
  }
  throw new ProductError(
    'misconfigured',
    `${names.clientAddressSource} must be one of ${clientAddressSources.join(', ')}`,
  );
}

/** `REQUEST_RETENTION_DAYS`, when set: both functions write requests, so both read it. */
function requestRetention(env: Env, name: string): RequestRetention {
  return env[name]?.trim() ? { requestRetentionDays: positiveInteger(env, name, 1) } : {};
}

export function readSaveRequestConfig(env: Env = process.env): SaveRequestFunctionConfig {
  const names = saveRequestVariables;
  return {
    tableName: required(env, names.tableName),
    idempotencyTableName: readIdempotencyTableName(env),
    limitCountersTableName: required(env, names.limitCountersTableName),
    clientHourlySaveCap: positiveInteger(env, names.clientHourlySaveCap, defaultClientHourlySaveCap),
    networkHourlySaveCap: positiveInteger(env, names.networkHourlySaveCap, defaultNetworkHourlySaveCap),
    clientAddress: clientAddressSettings(env),
    ...requestRetention(env, names.requestRetentionDays),
    ...mailProviderOf(env, names.mailProvider),
  };
}

/** MAIL_PROVIDER, when set: one of the providers, or the function is misconfigured. */
function mailProviderOf(env: Env, name: string): { mailProvider?: MailProvider } {
  const value = env[name]?.trim();
  if (!value) return {};
  if (!isMailProvider(value))
    throw new ProductError('misconfigured', `${name} must be one of ${mailProviders.join(', ')}`);
  return { mailProvider: value };
}

export function readSendCheatSheetConfig(env: Env = process.env): SendCheatSheetConfig {
  const names = sendCheatSheetVariables;
  const key = required(env, names.cheatSheetKey);
  return {
    tableName: required(env, names.tableName),
    idempotencyTableName: readIdempotencyTableName(env),
    limitCountersTableName: required(env, names.limitCountersTableName),
    bucket: required(env, names.cheatSheetBucket),
    key,
    attachmentFileName: posix.basename(key),
    senderEmail: required(env, names.senderEmail),
    addressDailyCap: positiveInteger(env, names.addressDailyCap, defaultAddressDailyCap),
    clientHourlySendCap: positiveInteger(env, names.clientHourlySendCap, defaultClientHourlySendCap),
    networkHourlySendCap: positiveInteger(env, names.networkHourlySendCap, defaultNetworkHourlySendCap),
    dailySendBudget: positiveInteger(env, names.dailySendBudget, defaultDailySendBudget),
    recipientDomainCheck: env[names.recipientDomainCheck]?.trim().toLowerCase() !== 'off',
    proofOfWork: proofOfWorkOf(env),
    dnsServers: env[names.dnsServers]?.trim() || undefined,
    clientAddress: clientAddressSettings(env),
    configurationSetName: env[names.configurationSetName]?.trim() || undefined,
    sendQueueUrl: env[names.sendQueueUrl]?.trim() || undefined,
    ...requestRetention(env, names.requestRetentionDays),
  };
}

export function readQueuedSendConfig(env: Env = process.env): QueuedSendConfig {
  const names = queuedSendVariables;
  const key = required(env, names.cheatSheetKey);
  return {
    tableName: required(env, names.tableName),
    limitCountersTableName: required(env, names.limitCountersTableName),
    bucket: required(env, names.cheatSheetBucket),
    key,
    attachmentFileName: posix.basename(key),
    senderEmail: required(env, names.senderEmail),
    configurationSetName: env[names.configurationSetName]?.trim() || undefined,
  };
}

/** The challenge function's: whether the send asks for the proof of work, and the secret's source. */
export interface ChallengeConfig {
  /** Whether JSON sends must carry a solved proof of work (only when `CHEAT_SHEET_CHALLENGE` is `on`). */
  readonly proofOfWork: boolean;
  readonly clientAddress: ClientAddressSettings;
}

/** Read by the send function and the challenge function alike: one switch for both. */
function proofOfWorkOf(env: Env): boolean {
  return env[sendCheatSheetVariables.challenge]?.trim().toLowerCase() === 'on';
}

/** Where the client's address comes from, and what the deployment's secret is (every function that keys a hash reads it). */
export function readClientAddressSettings(env: Env = process.env): ClientAddressSettings {
  return clientAddressSettings(env);
}

/** Where the deployment's secret is: given (locally, `CLIENT_ADDRESS_KEY`), or a Secrets Manager secret's ARN. */
export type DeploymentSecret = { readonly key: string } | { readonly originSecretArn: string };

/**
 * The deployment's secret, which keys every stored hash of an address (core/data/address-hash.ts),
 * for a function or tool that identifies no client (the SES events function, the leads tool): as
 * `CLIENT_ADDRESS_SOURCE` says when it is set, else `ORIGIN_SECRET_ARN`, else `CLIENT_ADDRESS_KEY`;
 * undefined when none is set.
 */
export function readDeploymentSecret(env: Env = process.env): DeploymentSecret | undefined {
  if (env[sendCheatSheetVariables.clientAddressSource]?.trim()) return clientAddressSettings(env);
  const originSecretArn = env[sendCheatSheetVariables.originSecretArn]?.trim();
  if (originSecretArn) return { originSecretArn };
  const key = env[sendCheatSheetVariables.clientAddressKey]?.trim();
  return key ? { key } : undefined;
}

export function readChallengeConfig(env: Env = process.env): ChallengeConfig {
  const proofOfWork = proofOfWorkOf(env);
  return { proofOfWork, clientAddress: clientAddressSettings(env) };
}

/** The visit function's: where the funnel's counts and the day's visitors live, and where the client's address comes from. */
export interface VisitCountConfig {
  readonly limitCountersTableName: string;
  readonly funnelVisitorsTableName: string;
  readonly clientAddress: ClientAddressSettings;
}

export function readVisitCountConfig(env: Env = process.env): VisitCountConfig {
  return {
    limitCountersTableName: required(env, visitCountVariables.limitCountersTableName),
    funnelVisitorsTableName: required(env, visitCountVariables.funnelVisitorsTableName),
    clientAddress: clientAddressSettings(env),
  };
}

/** IDEMPOTENCY_TABLE_NAME, or the local twin's `cheat_sheet_idempotency`: a function started without it runs. */
export function readIdempotencyTableName(env: Env = process.env): string {
  return env[saveRequestVariables.idempotencyTableName]?.trim() || idempotencyTableName;
}
