/**
 * POST /api/cheat-sheet-form (API Gateway HTTP API, payload 2.0): the form's `action`, for the
 * submits its script did not handle (JavaScript off, blocked, or not loaded yet). Parses the
 * urlencoded form, then runs the two JSON routes' own handlers in turn on the same request, as the
 * page's script calls them, so the validation, the limits, the honeypot, the origin check and the
 * metrics can never drift from theirs. Answers `303` to the result page of the outcome
 * (`core/site-pages.ts`), so the browser shows a page with no field in its URL; a request it
 * cannot take gets a small HTML page with its 4xx. Never 404: CloudFront would replace it with the
 * not-found page.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describeFailure } from '../shared/http-reply';
import { createLogger, describeErrorForLog, emailDomainOf } from '../shared/logger';
import { handler as saveRequestHandler } from '../save-request/handler';
import { handler as sendCheatSheetHandler } from '../send-cheat-sheet/handler';
import type { CheatSheetRequest } from '../../core/api/request-schema';
import { submitFormLogService } from '../../core/observability/product-metrics';
import { formResultPaths } from '../../core/site-pages';
import { parseCheatSheetFormEvent, type CheatSheetForm } from './form-request';
import { redirectTo, refusalPage } from './form-reply';
import { submitForm, type StepReply } from './submit-form';

const logger = createLogger(submitFormLogService);

type RouteHandler = (event: APIGatewayProxyEventV2, context?: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The request as the page's script would send it: the same event (headers such as the origin
 * secret and the viewer address, the client's source IP), with a JSON body instead of the form.
 */
function asJsonEvent(event: APIGatewayProxyEventV2, request: CheatSheetRequest): APIGatewayProxyEventV2 {
  const headers = Object.fromEntries(
    Object.entries(event.headers ?? {}).filter(
      ([name]) => !['content-type', 'content-length'].includes(name.toLowerCase()),
    ),
  );
  return {
    ...event,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(request),
    isBase64Encoded: false,
  };
}

/** A JSON route's status and, on failure, its `error` (both routes' failure bodies carry one). */
function stepReplyOf(reply: APIGatewayProxyStructuredResultV2): StepReply {
  const statusCode = reply.statusCode ?? 200;
  try {
    const body = JSON.parse(reply.body ?? '') as { error?: unknown };
    return typeof body.error === 'string' ? { statusCode, error: body.error } : { statusCode };
  } catch {
    return { statusCode };
  }
}

function runRoute(route: RouteHandler, event: APIGatewayProxyEventV2, context: Context | undefined) {
  return async (request: CheatSheetRequest) => stepReplyOf(await route(asJsonEvent(event, request), context));
}

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

  const submitted = await submitForm(form, {
    save: runRoute(saveRequestHandler, event, context),
    send: runRoute(sendCheatSheetHandler, event, context),
  });
  const emailDomain = emailDomainOf(form.request.email);
  if ('refusal' in submitted) {
    logger.warn('Cheat-sheet form refused by a step', { statusCode: submitted.refusal.statusCode, emailDomain });
    return refusalPage(submitted.refusal.statusCode, submitted.refusal.message);
  }
  logger.info('Cheat-sheet form answered', { outcome: submitted.outcome, emailDomain });
  return redirectTo(formResultPaths[submitted.outcome]);
}
