/**
 * POST /api/send-cheat-sheet (API Gateway HTTP API, payload 2.0): parses, identifies the client
 * (behind CloudFront, refusing a request that did not come through it), sends, replies
 * `200 {success: true, message}` or `4xx/5xx {success: false, error}`. A filled honeypot gets the
 * same 200 and nothing is sent.
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { cheatSheetSentMessage, failureBodyOf, type CheatSheetSentBody } from '../../core/api/replies';
import { dynamoDb, s3, secretsManager, ses } from '../shared/aws-clients';
import { cheatSheetRequestsTable } from '../shared/cheat-sheet-requests';
import { clientCounterKeyOf } from '../shared/client-address';
import { readSendCheatSheetConfig } from '../shared/config';
import { describeFailure, jsonReply } from '../shared/http-reply';
import { parseCheatSheetRequestEvent } from '../shared/http-request';
import { createLogger, describeErrorForLog, emailDomainOf } from '../shared/logger';
import { ProductMetrics } from '../shared/metrics';
import { loadOriginSecret } from '../shared/origin-secret';
import { isHoneypotFilled } from '../../core/api/request-schema';
import { functionServices } from '../../core/observability/product-metrics';
import { loadCheatSheetPdf } from './cheat-sheet-pdf';
import { sesEmailSender } from './email-sender';
import { clientHourlyWindow, dailyBudgetWindow, rollingCounterTable } from './rolling-counter';
import { sendCheatSheet } from './send-cheat-sheet';
import { sendQuotaTable } from './send-quota';

const logger = createLogger(functionServices.sendCheatSheet);
const metrics = new ProductMetrics(functionServices.sendCheatSheet);
const sendEmail = sesEmailSender(ses);

export const handler = metrics.instrument(sendCheatSheetHandler);

async function sendCheatSheetHandler(
  event: APIGatewayProxyEventV2,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (context) logger.addContext(context);
  try {
    const request = parseCheatSheetRequestEvent(event);

    const config = readSendCheatSheetConfig();
    // Behind CloudFront, a request without the origin secret stops here (403), before any counter.
    const clientKey = await clientCounterKeyOf(event, config.clientAddress, (arn) =>
      loadOriginSecret(secretsManager, arn),
    );
    if (isHoneypotFilled(request)) {
      logger.warn('Honeypot filled in: answered as sent, nothing sent or stored');
      metrics.countRefusal('HoneypotCaught');
      return jsonReply(200, { success: true, message: cheatSheetSentMessage } satisfies CheatSheetSentBody);
    }

    const result = await sendCheatSheet(request, {
      requests: cheatSheetRequestsTable(dynamoDb, config.tableName, { retentionDays: config.requestRetentionDays }),
      quota: sendQuotaTable(dynamoDb, config.sendQuotaTableName),
      clientSends: rollingCounterTable(dynamoDb, config.sendQuotaTableName, clientHourlyWindow),
      sendBudget: rollingCounterTable(dynamoDb, config.sendQuotaTableName, dailyBudgetWindow),
      clientKey,
      loadPdf: () => loadCheatSheetPdf(s3, config.bucket, config.key),
      sendEmail,
      senderEmail: config.senderEmail,
      attachmentFileName: config.attachmentFileName,
      dailyLimit: config.dailyLimit,
      clientHourlyLimit: config.clientHourlyLimit,
      dailySendBudget: config.dailySendBudget,
      configurationSetName: config.configurationSetName,
      now: () => new Date(),
      pause: (ms) => delay(ms),
      logger,
    });
    logger.info('Cheat sheet sent', {
      sesMessageId: result.messageId,
      recordedAs: result.recordedAs,
      emailDomain: emailDomainOf(request.email),
    });
    metrics.countOutcome('CheatSheetSent');
    return jsonReply(200, { success: true, message: cheatSheetSentMessage } satisfies CheatSheetSentBody);
  } catch (error) {
    metrics.countFailure(error);
    const { statusCode, message } = describeFailure(error);
    const log = statusCode >= 500 ? logger.error.bind(logger) : logger.warn.bind(logger);
    log('Cheat sheet not sent', { statusCode, ...describeErrorForLog(error) });
    return jsonReply(statusCode, failureBodyOf.sendCheatSheet(message));
  }
}
