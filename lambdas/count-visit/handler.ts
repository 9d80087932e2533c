/**
 * GET /api/visit (API Gateway HTTP API, payload 2.0): the landing page's beacon, an `<img>` in the
 * HTML of `/`. Counts the visit and, once a day, the visitor in the author's funnel
 * (lambdas/funnel/visitor-count.ts), unless the user agent is a known bot's (isbot's list) or
 * missing (every browser sends one). Always answers a 1×1 transparent GIF, never cached, so each
 * page view asks again: a visit that could not be counted is logged and never shows on the page.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { isbot } from 'isbot';
import { productRoutes } from '../../core/api/catalogue/routes';
import { visitMetrics } from '../../core/observability/product-metrics';
import { visitCounter } from '../funnel/visitor-count';
import { allowHeaderOf, describeFailure } from '../http/http-reply';
import { readApiRequest, refuseOtherMethods, type ApiRequest } from '../http/http-request';
import { loadOriginSecret } from '../http/origin-secret';
import { trustedClientNetworkOf } from '../limits/client-address';
import { dynamoDb, secretsManager } from '../runtime/aws-clients';
import { readVisitCountConfig } from '../runtime/config';
import { createLogger, describeErrorForLog } from '../runtime/logger';
import { VisitMetrics } from '../runtime/metrics';

const route = productRoutes.countVisit;
const logger = createLogger(route.logService);
const metrics = new VisitMetrics();

/** The smallest transparent GIF (43 bytes): an `<img>` that gets it draws nothing and logs no error. */
const transparentGif = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

function beaconReply(statusCode: number): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: { 'Content-Type': 'image/gif', 'Cache-Control': 'no-store', ...allowHeaderOf(statusCode, route) },
    body: transparentGif,
    isBase64Encoded: true,
  };
}

let counter: ReturnType<typeof visitCounter> | undefined;

async function countVisit(request: ApiRequest): Promise<void> {
  const userAgent = request.userAgent?.trim() ?? '';
  if (userAgent === '' || isbot(userAgent)) {
    metrics.count(visitMetrics.botVisit);
    return;
  }
  const config = readVisitCountConfig();
  const network = await trustedClientNetworkOf(request.client, config.clientAddress, (arn) =>
    loadOriginSecret(secretsManager, arn),
  );
  counter ??= visitCounter(dynamoDb, {
    countsTableName: config.limitCountersTableName,
    visitorsTableName: config.funnelVisitorsTableName,
  });
  const { uniqueVisitor } = await counter.count({ network, userAgent });
  metrics.count(visitMetrics.visit);
  if (uniqueVisitor) metrics.count(visitMetrics.uniqueVisitor);
}

export async function handler(
  event: APIGatewayProxyEventV2,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (context) logger.addContext(context);
  const request = readApiRequest(event);
  try {
    refuseOtherMethods(request, route);
    await countVisit(request);
    return beaconReply(200);
  } catch (error) {
    const { statusCode } = describeFailure(error);
    // A visit the funnel could not count is the operator's to know, never the reader's.
    const log = statusCode >= 500 ? logger.error.bind(logger) : logger.warn.bind(logger);
    log('Visit not counted', { statusCode, ...describeErrorForLog(error) });
    return beaconReply(statusCode === 405 ? 405 : 200);
  } finally {
    metrics.flush();
  }
}
