/**
 * GET /api/cheat-sheet-challenge (API Gateway HTTP API, payload 2.0): the proof of work the page
 * solves before a send. With `CHEAT_SHEET_CHALLENGE=on`, `200 {required: true, challenge}`, a
 * fresh challenge signed with the deployment's secret; off, `200 {required: false}` and nothing
 * is read. Never cached (`Cache-Control: no-store`): each challenge buys one send.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { jsonReplyOf, productRoutes } from '../../core/api/catalogue/routes';
import type { ChallengeIssuedBody } from '../../core/api/reply-bodies';
import { describeFailure, jsonReply } from '../http/http-reply';
import { readApiRequest, refuseOtherMethods } from '../http/http-request';
import { loadOriginSecret } from '../http/origin-secret';
import { issueChallenge, proofOfWorkSecretOf } from '../limits/proof-of-work-challenge';
import { secretsManager } from '../runtime/aws-clients';
import { readChallengeConfig } from '../runtime/config';
import { describeErrorForLog, createLogger } from '../runtime/logger';

const route = productRoutes.cheatSheetChallenge;
const logger = createLogger(route.logService);

export async function handler(
  event: APIGatewayProxyEventV2,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (context) logger.addContext(context);
  try {
    refuseOtherMethods(readApiRequest(event), route);
    const body = await challengeOf();
    return jsonReply(200, body, route);
  } catch (error) {
    const failure = describeFailure(error);
    const log = failure.statusCode >= 500 ? logger.error.bind(logger) : logger.warn.bind(logger);
    log('No challenge issued', { statusCode: failure.statusCode, ...describeErrorForLog(error) });
    const { statusCode, message, code } = failure;
    return jsonReply(statusCode, jsonReplyOf('cheatSheetChallenge').failureBody.of({ message, code }), route);
  }
}

async function challengeOf(): Promise<ChallengeIssuedBody> {
  const config = readChallengeConfig();
  if (!config.proofOfWork) return { required: false };
  const secret = await proofOfWorkSecretOf(config.clientAddress, (arn) => loadOriginSecret(secretsManager, arn));
  const { parameters, signature } = await issueChallenge(secret);
  const { algorithm, nonce, salt, cost, keyLength, keyPrefix, keySignature, expiresAt } = parameters;
  return {
    required: true,
    challenge: {
      parameters: { algorithm, nonce, salt, cost, keyLength, keyPrefix, keySignature, expiresAt: expiresAt! },
      signature: signature!,
    },
  };
}
