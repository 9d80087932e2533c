/**
 * The functions' configuration, from environment variables only; their names and defaults live
 * in `core/config/function-environment.ts`. Endpoints are not configured here: the AWS SDK reads
 * AWS_ENDPOINT_URL_DYNAMODB / _S3 / _SESV2 itself.
 */

import { posix } from 'node:path';
import {
  clientAddressSources,
  defaultClientHourlyCap,
  defaultAddressDailyCap,
  defaultDailySendBudget,
  saveRequestVariables,
  sendCheatSheetVariables,
  type ClientAddressSource,
} from '../../core/config/function-environment';
import { ConfigurationError } from './errors';

export interface SaveRequestConfig {
  readonly tableName: string;
}

export interface SaveRequestFunctionConfig extends SaveRequestConfig {
  /** Days before a request expires (DynamoDB TTL); undefined keeps it. */
  readonly requestRetentionDays?: number;
}

export interface SendCheatSheetConfig extends SaveRequestFunctionConfig {
  /** The daily cap's own table (SEND_QUOTA_TABLE_NAME): the requests table holds requests only. */
  readonly limitCountersTableName: string;
  readonly bucket: string;
  readonly key: string;
  /** The PDF's file name in the e-mail: the last part of its object key. */
  readonly attachmentFileName: string;
  readonly senderEmail: string;
  readonly addressDailyCap: number;
  readonly clientHourlyCap: number;
  readonly dailySendBudget: number;
  /** Where the client's address comes from, and what keys its counters. */
  readonly clientAddress: ClientAddressSettings;
  /** Sent as SendEmail's ConfigurationSetName; undefined sends with SES's defaults. */
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
  if (!value) throw new ConfigurationError(`Environment variable ${name} is not set`);
  return value;
}

/** A positive whole number from `name`, or `fallback` when it is unset. */
function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new ConfigurationError(`${name} must be a positive integer`);
  return value;
}

function clientAddressSettings(env: Env): ClientAddressSettings {
  const names = sendCheatSheetVariables;
  const source = required(env, names.clientAddressSource);
  if (source === 'source-ip') return { source, key: required(env, names.clientAddressKey) };
  if (source === 'cloudfront-viewer-address') {
    return { source, originSecretArn: required(env, names.originSecretArn) };
  }
  throw new ConfigurationError(`${names.clientAddressSource} must be one of ${clientAddressSources.join(', ')}`);
}

/** `REQUEST_RETENTION_DAYS`, when set: both functions write requests, so both read it. */
function requestRetention(env: Env, name: string): Pick<SaveRequestFunctionConfig, 'requestRetentionDays'> {
  return env[name]?.trim() ? { requestRetentionDays: positiveInteger(env, name, 1) } : {};
}

export function readSaveRequestConfig(env: Env = process.env): SaveRequestFunctionConfig {
  return {
    tableName: required(env, saveRequestVariables.tableName),
    ...requestRetention(env, saveRequestVariables.requestRetentionDays),
  };
}

export function readSendCheatSheetConfig(env: Env = process.env): SendCheatSheetConfig {
  const names = sendCheatSheetVariables;
  const key = required(env, names.cheatSheetKey);
  return {
    tableName: required(env, names.tableName),
    limitCountersTableName: required(env, names.limitCountersTableName),
    bucket: required(env, names.cheatSheetBucket),
    key,
    attachmentFileName: posix.basename(key),
    senderEmail: required(env, names.senderEmail),
    addressDailyCap: positiveInteger(env, names.addressDailyCap, defaultAddressDailyCap),
    clientHourlyCap: positiveInteger(env, names.clientHourlyCap, defaultClientHourlyCap),
    dailySendBudget: positiveInteger(env, names.dailySendBudget, defaultDailySendBudget),
    clientAddress: clientAddressSettings(env),
    configurationSetName: env[names.configurationSetName]?.trim() || undefined,
    ...requestRetention(env, names.requestRetentionDays),
  };
}
