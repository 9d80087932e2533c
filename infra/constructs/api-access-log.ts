import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';

/**
 * What the HTTP API's access log records of each request (the `ApiAccessLogGroupName` output):
 * one JSON object per request, from API Gateway's context variables. No bodies, so no names or
 * addresses; the source IP and user agent are there to trace a spray (docs/abuse.md).
 */
export const accessLogFormat = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    requestTime: '$context.requestTime',
    sourceIp: '$context.identity.sourceIp',
    userAgent: '$context.identity.userAgent',
    httpMethod: '$context.httpMethod',
    path: '$context.path',
    routeKey: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    integrationStatus: '$context.integrationStatus',
    integrationError: '$context.integrationErrorMessage',
  }),
);
