/**
 * POST /api/cheat-sheet-form (API Gateway HTTP API, payload 2.0): the form's `action`, for the
 * submits its script did not handle (JavaScript off, blocked, or not loaded yet). Parses the
 * urlencoded form, then takes the two JSON routes' own steps in turn on the same request
 * (save-step.ts, send-step.ts, with the same dependency factories), as the page's script calls
 * them, so the validation, the limits, the honeypot, the origin check and the metrics can never
 * drift from theirs. Answers `303` to the result page of the outcome (`core/site-pages.ts`), so
 * the browser shows a page with no field in its URL; a request it cannot take gets a small HTML
 * page with its 4xx. Never 404: CloudFront would replace it with the not-found page.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describeFailure } from '../shared/http-reply';
import { readApiRequest } from '../shared/http-request';
import { createLogger, describeErrorForLog, emailDomainOf } from '../shared/logger';
import { ProductMetrics } from '../shared/metrics';
import { saveStep } from '../shared/save-step';
import { sendStep } from '../shared/send-step';
import { functionServices, submitFormLogService } from '../../core/observability/product-metrics';
import { formResultPaths } from '../../core/site-pages';
import { parseCheatSheetForm, type CheatSheetForm } from './form-request';
import { redirectTo, refusalPage } from './form-reply';
import { submitForm } from './submit-form';

const logger = createLogger(submitFormLogService);
// Its saves and sends count under the JSON routes' services: the funnel and the alarms cover both ways in.
const saveMetrics = new ProductMetrics(functionServices.saveRequest);
const sendMetrics = new ProductMetrics(functionServices.sendCheatSheet);

// The save step's metrics flush first, as when the page calls the two routes in turn.
export const handler = sendMetrics.instrument(saveMetrics.instrument(submitFormHandler));

async function submitFormHandler(
  event: APIGatewayProxyEventV2,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (context) logger.addContext(context);
  const apiRequest = readApiRequest(event);
  let form: CheatSheetForm;
  try {
    form = parseCheatSheetForm(apiRequest);
  } catch (error) {
    const { statusCode, message } = describeFailure(error);
    logger.warn('Cheat-sheet form refused', { statusCode, ...describeErrorForLog(error) });
    return refusalPage(statusCode, message);
  }

  const submitted = await submitForm(form, {
    save: (request) => saveStep(request, apiRequest, { logger, metrics: saveMetrics }),
    send: (request) => sendStep(request, apiRequest, { logger, metrics: sendMetrics }),
  });
  const emailDomain = emailDomainOf(form.request.email);
  if ('refusal' in submitted) {
    logger.warn('Cheat-sheet form refused by a step', { statusCode: submitted.refusal.statusCode, emailDomain });
    return refusalPage(submitted.refusal.statusCode, submitted.refusal.message);
  }
  logger.info('Cheat-sheet form answered', { outcome: submitted.outcome, emailDomain });
  return redirectTo(formResultPaths[submitted.outcome]);
}
