/**
 * POST /api/cheat-sheet-form (API Gateway HTTP API, payload 2.0): the form's `action`, for the
 * submits its script did not handle (JavaScript off, or not loaded yet). Parses the urlencoded
 * form, saves then sends through the same domain functions as the two JSON routes, and answers
 * `303` to the result page of the outcome (`core/site-pages.ts`), so the browser shows a page with
 * no field in its URL. A request it cannot take gets a small HTML page with its 4xx. Never 404:
 * CloudFront would replace it with the not-found page.
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { dynamoDb, s3, ses } from '../shared/aws-clients';
import { cheatSheetRequestsTable } from '../shared/cheat-sheet-requests';
import { readSendCheatSheetConfig } from '../shared/config';
import { describeFailure } from '../shared/http-reply';
import { createLogger, describeErrorForLog, emailDomainOf } from '../shared/logger';
import { saveRequest } from '../save-request/save-request';
import { loadCheatSheetPdf } from '../send-cheat-sheet/cheat-sheet-pdf';
import { sesEmailSender } from '../send-cheat-sheet/email-sender';
import { sendCheatSheet } from '../send-cheat-sheet/send-cheat-sheet';
import { sendQuotaTable } from '../send-cheat-sheet/send-quota';
import { isDomainVerificationMessage } from '../../core/content/messages';
import { formResultPaths, type FormOutcome } from '../../core/site-pages';
import { parseCheatSheetFormEvent, type CheatSheetForm } from './form-request';
import { redirectTo, refusalPage } from './form-reply';
import { submitForm } from './submit-form';

const logger = createLogger('submit-form');
const sendEmail = sesEmailSender(ses);

export async function handler(
  event: APIGatewayProxyEventV2,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (context) logger.addContext(context);
  let form: CheatSheetForm;
  try {
    form = parseCheatSheetFormEvent(event);
  } catch (error) {
    const { statusCode, message } = describeFailure(error);
    logger.warn('Cheat-sheet form refused', { statusCode, ...describeErrorForLog(error) });
    return refusalPage(statusCode, message);
  }
  const outcome = await outcomeOf(form);
  return redirectTo(formResultPaths[outcome]);
}

async function outcomeOf(form: CheatSheetForm): Promise<FormOutcome> {
  const emailDomain = emailDomainOf(form.request.email);
  try {
    const config = readSendCheatSheetConfig();
    const requests = cheatSheetRequestsTable(dynamoDb, config.tableName);
    const submitted = await submitForm(form, {
      save: (request) => saveRequest(request, { requests, now: () => new Date() }),
      send: (request) =>
        sendCheatSheet(request, {
          requests,
          quota: sendQuotaTable(dynamoDb, config.sendQuotaTableName),
          loadPdf: () => loadCheatSheetPdf(s3, config.bucket, config.key),
          sendEmail,
          senderEmail: config.senderEmail,
          attachmentFileName: config.attachmentFileName,
          dailyLimit: config.dailyLimit,
          now: () => new Date(),
          pause: (ms) => delay(ms),
          logger,
        }),
      logger,
    });
    if (submitted === 'notConfirmed') {
      logger.info('Cheat-sheet form without the purchase confirmed: nothing saved or sent', { emailDomain });
      return 'notConfirmed';
    }
    // A filled honeypot looks like a success to whoever filled it.
    if (submitted === 'honeypotFilled') logger.warn('Honeypot filled: nothing saved or sent', { emailDomain });
    else logger.info('Cheat sheet sent', { emailDomain });
    return 'sent';
  } catch (error) {
    // The page's own rule, applied to the message the send route would have answered.
    const { statusCode, message } = describeFailure(error);
    const log = statusCode >= 500 ? logger.error.bind(logger) : logger.warn.bind(logger);
    log('Cheat sheet not sent', { statusCode, emailDomain, ...describeErrorForLog(error) });
    return isDomainVerificationMessage(message) ? 'emailConfigurationError' : 'notSent';
  }
}
