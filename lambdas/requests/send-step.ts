/**
 * The send step, as both the send route and the form route take it: identifying the client
 * (behind CloudFront, refusing a request that did not come through it), the honeypot, the
 * domain function with its dependencies, the log line and the metric.
 */

import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '@aws-lambda-powertools/logger';
import { dynamoDb, s3, secretsManager, ses, sqs } from '../runtime/aws-clients';
import { maxSendRateReader, sendPace } from '../mail/send-pace';
import { sqsSendQueue } from './send-queue';
import { cheatSheetRequestsTable } from './cheat-sheet-requests';
import { clientKeysOf, type ClientKeys } from '../limits/client-address';
import { suppressionList } from '../mail/suppressions';
import { readSendCheatSheetConfig, type SendCheatSheetConfig } from '../runtime/config';
import { describeFailure } from '../http/http-reply';
import { describeErrorForLog, emailDomainOf } from '../runtime/logger';
import type { ProductMetrics } from '../runtime/metrics';
import type { ApiRequest } from '../http/http-request';
import { loadOriginSecret } from '../http/origin-secret';
import { isCanaryRequest } from '../http/canary-request';
import type { RemainingTime } from '../runtime/remaining-time';
import type { StepResult } from './step-result';
import { isHoneypotFilled, type CheatSheetRequest } from '../../core/api/request-schema';
import { cheatSheetSentMessage } from '../../core/api/messages';
import { jsonReplyOf } from '../../core/api/catalogue/routes';
import type { CheatSheetSentBody } from '../../core/api/reply-bodies';
import type { JSONValue } from '@aws-lambda-powertools/commons/types';
import type { KeyedOutcome } from './idempotency';
import { loadCheatSheetPdf } from '../mail/cheat-sheet-pdf';
import { sesEmailSender } from '../mail/email-sender';
import { hourlyWindow, dailySendBudgetWindow, rollingCounter } from '../limits/rolling-counter';
import { isOutcomeUnknown, sendCheatSheet, type SendCheatSheetDependencies } from './send-cheat-sheet';
import { addressDailyCapCounter } from '../limits/address-daily-cap';
import { addressKeySource, type AddressKeySource } from '../limits/address-key';
import { proofOfWork, proofOfWorkSecretOf, requireProofOfWork } from '../limits/proof-of-work';
import { createRecipientDomainCheck, dnsServersFrom, type RecipientDomainCheck } from '../mail/recipient-domain';

const sendEmail = sesEmailSender(ses);

/** The account's SES rate, read once per container and period (send-pace.ts). */
let maxSendRate: (() => Promise<number>) | undefined;
function maxSendRateOf(logger: Logger): () => Promise<number> {
  maxSendRate ??= maxSendRateReader(ses, (error) =>
    logger.warn("SES's maximum send rate could not be read: pacing at the sandbox's 1 a second", {
      ...describeErrorForLog(error),
    }),
  );
  return maxSendRate;
}

/** One check (and its cache) per container and DNS servers: the cache is what keeps it cheap. */
const recipientDomainChecks = new Map<string, RecipientDomainCheck>();
function recipientDomainCheckFor(dnsServers: string | undefined): RecipientDomainCheck {
  const id = dnsServers ?? '';
  let check = recipientDomainChecks.get(id);
  if (!check) {
    check = createRecipientDomainCheck({ servers: dnsServersFrom(dnsServers) });
    recipientDomainChecks.set(id, check);
  }
  return check;
}

/** The domain function's dependencies, from the function's configuration: the one factory both routes use. */
export function sendCheatSheetDependencies(
  config: SendCheatSheetConfig,
  clientKeys: ClientKeys,
  addressKey: AddressKeySource,
  logger: Logger,
  metrics?: ProductMetrics,
  remainingTimeMs?: RemainingTime,
): SendCheatSheetDependencies {
  return {
    requests: cheatSheetRequestsTable(dynamoDb, config.tableName, { retentionDays: config.requestRetentionDays }),
    suppressions: suppressionList(dynamoDb, config.limitCountersTableName, addressKey),
    newToken: randomUUID,
    onOutcomeUnknown: () => metrics?.countNotice('SendOutcomeUnknown'),
    onNotRecorded: () => metrics?.countNotice('SendNotRecorded'),
    addressDailyCapCounter: addressDailyCapCounter(dynamoDb, config.limitCountersTableName, addressKey),
    hourlySendCapCounter: rollingCounter(dynamoDb, config.limitCountersTableName, hourlyWindow),
    dailySendBudgetCounter: rollingCounter(dynamoDb, config.limitCountersTableName, dailySendBudgetWindow),
    clientKey: clientKeys.client,
    networkKey: clientKeys.network,
    ...(config.recipientDomainCheck && { checkRecipientDomain: recipientDomainCheckFor(config.dnsServers) }),
    onRecipientDomainUnknown: (result) => {
      logger.warn('Recipient domain lookup failed: sending anyway', { ...result });
      metrics?.countNotice('RecipientDomainUnknown');
    },
    loadPdf: () => loadCheatSheetPdf(s3, config.bucket, config.key),
    sendEmail,
    senderEmail: config.senderEmail,
    attachmentFileName: config.attachmentFileName,
    addressDailyCap: config.addressDailyCap,
    clientHourlySendCap: config.clientHourlySendCap,
    networkHourlySendCap: config.networkHourlySendCap,
    dailySendBudget: config.dailySendBudget,
    configurationSetName: config.configurationSetName,
    now: () => new Date(),
    ...(remainingTimeMs && { remainingTimeMs }),
    pause: (ms) => delay(ms),
    sendPace: sendPace(dynamoDb, config.limitCountersTableName, maxSendRateOf(logger)),
    ...(config.sendQueueUrl !== undefined && { handOff: sqsSendQueue(sqs, config.sendQueueUrl) }),
    logger,
  };
}

export interface StepReporting {
  readonly logger: Logger;
  /** Counts under the send route's service, whichever route took the step. */
  readonly metrics: ProductMetrics;
  /** The time left in the invocation: no SES call starts without the time it may take. */
  readonly remainingTimeMs?: RemainingTime;
}

export type SendStepResult = StepResult<object>;

/** A failure of the send step (or of parsing before it): counted, logged, described. */
export function sendFailed(error: unknown, { logger, metrics }: StepReporting): SendStepResult {
  metrics.countFailure(error);
  const failure = describeFailure(error);
  const log = failure.statusCode >= 500 ? logger.error.bind(logger) : logger.warn.bind(logger);
  log('Cheat sheet not sent', { statusCode: failure.statusCode, ...describeErrorForLog(error) });
  return {
    ok: false,
    failure,
    ...(isOutcomeUnknown(error) && { outcomeUnknown: true }),
  };
}

/**
 * `apiRequest` is the request as the handler read it: the client's origin (address, origin secret)
 * and its proof of work are in it. `submissionKey` is the submission's `Idempotency-Key`: the send
 * is for the request it names (send-cheat-sheet.ts), never for another found by address.
 * `asksProofOfWork`: the JSON route's sends must carry a solved challenge while
 * `CHEAT_SHEET_CHALLENGE` is on; the form route's (no script) never do.
 */
export async function sendStep(
  request: CheatSheetRequest,
  apiRequest: ApiRequest,
  reporting: StepReporting,
  submissionKey?: string,
  { asksProofOfWork = false }: { readonly asksProofOfWork?: boolean } = {},
): Promise<SendStepResult> {
  const { logger, metrics } = reporting;
  try {
    const config = readSendCheatSheetConfig();
    // Behind CloudFront, a request without the origin secret stops here (403), before any counter.
    const clientKeys = await clientKeysOf(apiRequest.client, config.clientAddress, (arn) =>
      loadOriginSecret(secretsManager, arn),
    );
    // Then the proof of work, before the honeypot and any limit: a refusal counts nothing.
    if (asksProofOfWork && config.proofOfWork) {
      const secret = await proofOfWorkSecretOf(config.clientAddress, (arn) => loadOriginSecret(secretsManager, arn));
      await requireProofOfWork(proofOfWork(secret, dynamoDb, config.limitCountersTableName), apiRequest.proofOfWork);
    }
    if (isHoneypotFilled(request)) {
      logger.warn('Honeypot filled in: answered as sent, nothing sent or stored');
      metrics.countRefusal('HoneypotCaught');
      return { ok: true };
    }

    const canary = await isCanaryRequest(
      apiRequest,
      request.email,
      config.clientAddress,
      (arn) => loadOriginSecret(secretsManager, arn),
      new Date(),
    );
    const result = await sendCheatSheet(
      request,
      {
        ...sendCheatSheetDependencies(
          config,
          clientKeys,
          addressKeySource(config.clientAddress, (arn) => loadOriginSecret(secretsManager, arn)),
          logger,
          metrics,
          reporting.remainingTimeMs,
        ),
        canary,
      },
      submissionKey === undefined ? undefined : { submissionKey },
    );
    if (result.recordedAs === 'queued') {
      logger.info('Cheat sheet accepted: queued for SES at its rate', {
        requestItemId: result.requestId,
        emailDomain: emailDomainOf(request.email),
      });
      return { ok: true };
    }
    if (result.recordedAs === 'already-sent') {
      logger.info('Cheat sheet sent before under this key: nothing sent again', { requestItemId: result.requestId });
      return { ok: true };
    }
    if (canary) {
      // Not CheatSheetSent: the reputation alarm's denominator and the funnel count readers' e-mails only.
      logger.info('Canary e-mail sent', { sesMessageId: result.messageId, requestItemId: result.requestId });
      return { ok: true };
    }
    logger.info('Cheat sheet sent', {
      sesMessageId: result.messageId,
      requestItemId: result.requestId,
      recordedAs: result.recordedAs,
      emailDomain: emailDomainOf(request.email),
    });
    metrics.countOutcome('CheatSheetSent');
    return { ok: true };
  } catch (error) {
    return sendFailed(error, reporting);
  }
}

/**
 * The send route's reply to a step's result. Kept under the request's key: a send, and a send
 * whose outcome is unknown (SES may have accepted it), so a repeat never mails twice; every other
 * failure proves nothing was sent, and the key may try again.
 */
export function sendReplyOf(result: SendStepResult): KeyedOutcome {
  const reply = jsonReplyOf('sendCheatSheet');
  if (result.ok) {
    return {
      reply: {
        statusCode: reply.success.status,
        body: { success: true, message: cheatSheetSentMessage } satisfies CheatSheetSentBody,
      },
      keep: true,
    };
  }
  return {
    reply: { statusCode: result.failure.statusCode, body: reply.failureBody.of(result.failure) as JSONValue },
    keep: result.outcomeUnknown === true,
  };
}
