/**
 * POST /api/cheat-sheet-form (API Gateway HTTP API, payload 2.0): the form's `action`, for the
 * submits its script did not handle (JavaScript off, blocked, or not loaded yet). Parses the
 * urlencoded form, then takes the two JSON routes' own steps in turn on the same request
 * (save-step.ts, send-step.ts, with the same dependency factories), as the page's script calls
 * them, so the validation, the limits, the honeypot, the origin check and the metrics can never
 * drift from theirs. Each step runs under an idempotency key derived from the client and the
 * mailbox (form-key.ts), scoped to its JSON route as the page's key is: a double post sends once.
 * Answers `303` to the result page of the outcome (`core/site-pages.ts`), so the browser shows a
 * page with no field in its URL; a request it cannot take gets a small HTML page with its 4xx.
 * Never 404: CloudFront would replace it with the not-found page.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { productRoutes } from '../../core/api/catalogue/routes';
import { secretsManager } from '../runtime/aws-clients';
import { clientKeysOf } from '../limits/client-address';
import { readSaveRequestConfig } from '../runtime/config';
import { describeFailure } from '../http/http-reply';
import { readApiRequest, type ApiRequest } from '../http/http-request';
import type { IdempotencyScope } from '../requests/idempotency';
import { replyOncePerKey, stepOutcomeOf } from '../requests/keyed-step';
import { createLogger, describeErrorForLog, emailDomainOf } from '../runtime/logger';
import { ProductMetrics } from '../runtime/metrics';
import { loadOriginSecret } from '../http/origin-secret';
import { remainingTimeOf } from '../runtime/remaining-time';
import { saveReplyOf, saveStep } from '../requests/save-step';
import { sendReplyOf, sendStep } from '../requests/send-step';
import { functionServices, submitFormLogService } from '../../core/observability/product-metrics';
import { formResultPaths } from '../../core/site-pages';
import { formIdempotencyKey, formPayloadMailbox } from './form-key';
import { parseCheatSheetForm, type CheatSheetForm } from './form-request';
import { redirectTo, refusalPage } from './form-reply';
import { submitForm, type SubmittedForm } from './submit-form';

const logger = createLogger(submitFormLogService);
// Its saves and sends count under the JSON routes' services: the funnel and the alarms cover both ways in.
const saveMetrics = new ProductMetrics(functionServices.saveRequest);
const sendMetrics = new ProductMetrics(functionServices.sendCheatSheet);

// The save step's metrics flush first, as when the page calls the two routes in turn.
export const handler = sendMetrics.instrument(saveMetrics.instrument(submitFormHandler));

/**
 * The post's key, or none when the client cannot be identified yet (no configuration, a request
 * that skipped CloudFront): the steps then refuse it themselves, exactly as without a key.
 */
async function formKeyOf(
  apiRequest: ApiRequest,
  email: string,
): Promise<{ readonly key: string; readonly mailbox: string } | undefined> {
  try {
    const config = readSaveRequestConfig();
    const { client } = await clientKeysOf(apiRequest.client, config.clientAddress, (arn) =>
      loadOriginSecret(secretsManager, arn),
    );
    return { key: formIdempotencyKey(client, email, new Date()), mailbox: formPayloadMailbox(client, email) };
  } catch {
    return undefined;
  }
}

async function submitFormHandler(
  event: APIGatewayProxyEventV2,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (context) logger.addContext(context);
  const apiRequest = readApiRequest(event);
  const remainingTimeMs = remainingTimeOf(context, productRoutes.submitForm.timeoutSeconds);
  let form: CheatSheetForm;
  try {
    form = parseCheatSheetForm(apiRequest);
  } catch (error) {
    const { statusCode, message } = describeFailure(error);
    logger.warn('Cheat-sheet form refused', { statusCode, ...describeErrorForLog(error) });
    return refusalPage(statusCode, message, productRoutes.submitForm);
  }

  const formKey = form.hasBook ? await formKeyOf(apiRequest, form.request.email) : undefined;
  const key = formKey?.key;
  // A repeat within the window is the same post, whatever else it changed: only who and which mailbox count.
  const payload = { mailbox: formKey?.mailbox ?? '' };
  const keyed = (scope: IdempotencyScope) => ({ key, scope, payload, remainingTimeMs, logger });
  const submitted = await submitForm(form, {
    save: async (request) =>
      stepOutcomeOf(
        await replyOncePerKey(keyed('save-request'), async () =>
          saveReplyOf(await saveStep(request, apiRequest, { logger, metrics: saveMetrics }, key)),
        ),
      ),
    send: async (request) =>
      stepOutcomeOf(
        await replyOncePerKey(keyed('send-cheat-sheet'), async () =>
          sendReplyOf(await sendStep(request, apiRequest, { logger, metrics: sendMetrics, remainingTimeMs }, key)),
        ),
      ),
  }).catch((error: unknown): SubmittedForm => {
    // Only the key's own refusals (in use, or its record unreadable) are thrown: shown as the send's.
    const failure = describeFailure(error);
    logger.warn('Cheat-sheet form refused by its key', {
      statusCode: failure.statusCode,
      ...describeErrorForLog(error),
    });
    return failure.statusCode === 409
      ? { refusal: { statusCode: failure.statusCode, message: failure.message } }
      : { outcome: 'notSent' };
  });
  const emailDomain = emailDomainOf(form.request.email);
  if ('refusal' in submitted) {
    logger.warn('Cheat-sheet form refused by a step', { statusCode: submitted.refusal.statusCode, emailDomain });
    return refusalPage(submitted.refusal.statusCode, submitted.refusal.message, productRoutes.submitForm);
  }
  logger.info('Cheat-sheet form answered', { outcome: submitted.outcome, emailDomain });
  return redirectTo(formResultPaths[submitted.outcome]);
}
