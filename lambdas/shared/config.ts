/**
 * The functions' configuration, from environment variables only (CONTRACT.md). Endpoints are not
 * configured here: the AWS SDK reads AWS_ENDPOINT_URL_DYNAMODB / _S3 / _SESV2 itself.
 */

import { posix } from 'node:path';
import { ConfigurationError } from './errors';

/** How many cheat sheets one address may receive in 24 hours unless CHEAT_SHEET_DAILY_LIMIT says otherwise. */
export const defaultDailyLimit = 3;

export interface SaveRequestConfig {
  readonly tableName: string;
}

export interface SendCheatSheetConfig extends SaveRequestConfig {
  /** The daily cap's own table (SEND_QUOTA_TABLE_NAME): the requests table holds requests only. */
  readonly sendQuotaTableName: string;
  readonly bucket: string;
  readonly key: string;
  /** The PDF's file name in the e-mail: the last part of its object key. */
  readonly attachmentFileName: string;
  readonly senderEmail: string;
  readonly dailyLimit: number;
}

type Env = Readonly<Record<string, string | undefined>>;

function required(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new ConfigurationError(`Environment variable ${name} is not set`);
  return value;
}

export function readSaveRequestConfig(env: Env = process.env): SaveRequestConfig {
  return { tableName: required(env, 'TABLE_NAME') };
}

export function readSendCheatSheetConfig(env: Env = process.env): SendCheatSheetConfig {
  const rawLimit = env.CHEAT_SHEET_DAILY_LIMIT?.trim();
  const dailyLimit = rawLimit ? Number(rawLimit) : defaultDailyLimit;
  if (!Number.isInteger(dailyLimit) || dailyLimit < 1) {
    throw new ConfigurationError('CHEAT_SHEET_DAILY_LIMIT must be a positive integer');
  }
  const key = required(env, 'CHEAT_SHEET_KEY');
  return {
    tableName: required(env, 'TABLE_NAME'),
    sendQuotaTableName: required(env, 'SEND_QUOTA_TABLE_NAME'),
    bucket: required(env, 'CHEAT_SHEET_BUCKET'),
    key,
    attachmentFileName: posix.basename(key),
    senderEmail: required(env, 'SENDER_EMAIL'),
    dailyLimit,
  };
}
