/**
 * The route recipe holds (docs/architecture.md, 'How to add a route'): a `GET /api/health` route,
 * added to a copy of the catalogue of functions and nowhere else, is a GET route of the
 * synthesized API, is watched by the objectives, graphed by its method, is a `get:` operation of the
 * OpenAPI document, and is mounted by the local twin, which answers any other method 405 with
 * `Allow: GET`.
 */
import { withDefaults } from '../../core/api/catalogue/function-entry';
import { failureKinds } from '../../core/api/catalogue/failures';
import { functionList } from '../../core/api/catalogue/functions';
import { routesOf, routeThrottleRule } from '../../core/api/catalogue/routes';
import { buildOpenApiDocument } from '../../infra/tools/openapi-document';
import { startLocalStack, type LocalStack } from '../../local/local-stack';
import { alarmsOf } from '../infra/support/alarms';
import { resourceByPrefix, synthTemplate } from '../infra/support/synth';
import { stackStartTimeoutMs } from '../support/cheat-sheet-pdf';
import { healthRoute } from '../support/recipes/health-route';
import { defaultApiThrottle } from '../../infra/context-defaults';

const health = withDefaults('health', healthRoute);
const catalogue = [...functionList, health];
const routes = routesOf(catalogue);
/** By the route throttle rule, the stage's rate must have room for the new route's: the routes' sum. */
const stageRate = routes.reduce((sum, route) => sum + route.throttle.rateLimit, 0);

describe('a GET route added to a copy of the catalogue, and nowhere else', () => {
  const template = synthTemplate({ functions: catalogue, context: { apiRateLimit: stageRate } });
  const functionId = resourceByPrefix(template, 'AWS::Lambda::Function', 'ApiHealthHealthFunction').logicalId;

  test("fails the synth with a message naming the route throttle rule while the stage's rate has no room for it", () => {
    expect(() => synthTemplate({ functions: catalogue })).toThrow(
      `Breaks ${routeThrottleRule}: ${routes.map((route) => `${route.method} ${route.path} ${route.throttle.rateLimit}`).join(' + ')} = ${stageRate} a second, over the stage's ${defaultApiThrottle.rateLimit}.`,
    );
  });

  test('is a GET route of the synthesized API, with an ANY twin for the other methods, and no POST', () => {
    const keys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (route) => route.Properties.RouteKey as string,
    );

    expect(keys.filter((key) => key.endsWith(' /api/health')).sort()).toEqual(['ANY /api/health', 'GET /api/health']);
    expect(keys).toHaveLength(2 * routes.length);
  });

  test('is served by its own function, sized by the defaults: 256 MB, and 3 s since it calls no AWS service', () => {
    const fn = resourceByPrefix(template, 'AWS::Lambda::Function', 'ApiHealthHealthFunction').resource;
    expect(fn.Properties).toMatchObject({ MemorySize: 256, Timeout: 3, Description: healthRoute.description });
    template.hasOutput('HealthLogGroupName', {});
  });

  test('is throttled on its own for GET and its ANY twin', () => {
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0]!;
    for (const key of ['GET /api/health', 'ANY /api/health']) {
      expect(stage.Properties.RouteSettings[key]).toMatchObject({ ThrottlingRateLimit: 1, ThrottlingBurstLimit: 2 });
    }
  });

  test('is watched by the objectives over the whole API, with no alarm of its own (at most 10 a stage)', () => {
    const alarms = JSON.stringify(alarmsOf(template));
    expect(alarms).not.toContain('/api/health');
    expect(alarms).not.toContain(functionId);
    // The availability and latency objectives read the API's stage, every route in it.
    expect(alarms).toContain('AWS/ApiGateway');
  });

  test("is graphed on the dashboard by its GET method, its function's duration", () => {
    const body = JSON.stringify(
      resourceByPrefix(template, 'AWS::CloudWatch::Dashboard', 'MonitoringDashboard').resource,
    );
    expect(body).toContain(String.raw`\"AWS/Lambda\",\"Duration\",\"FunctionName\",\"",{"Ref":"${functionId}"}`);
    expect(body).toContain('p99 GET /api/health');
  });

  test('is a get: operation of the OpenAPI document, every other method a 405 whose Allow names GET', () => {
    const document = buildOpenApiDocument({ routes, failures: failureKinds }) as any;
    const path = document.paths['/api/health'];

    expect(path.get.operationId).toBe('health');
    expect(Object.keys(path.get.responses)).toEqual(['200']);
    expect(path.get).not.toHaveProperty('requestBody');
    expect(path.post.responses['405']).toEqual({ $ref: '#/components/responses/HealthFailureMethodNotAllowed' });
    expect(document.components.responses.HealthFailureMethodNotAllowed.headers.Allow.schema.const).toBe('GET');
    expect(document.components.schemas.HealthFailure.properties.code.enum).toEqual(['method_not_allowed']);
  });

  describe('in the local twin', () => {
    let stack: LocalStack;
    beforeAll(async () => {
      process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
      process.env.POWERTOOLS_METRICS_DISABLED = 'true';
      stack = await startLocalStack({ siteDir: null, cheatSheetPdf: null, functions: catalogue });
    }, stackStartTimeoutMs);
    afterAll(async () => {
      await stack?.stop();
    });

    test('answers GET through its handler', async () => {
      const response = await fetch(new URL('/api/health', stack.urls.site));

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true });
    });

    test('answers any other method 405, with Allow: GET and its failure body', async () => {
      const response = await fetch(new URL('/api/health', stack.urls.site), { method: 'POST', body: '{}' });

      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET');
      expect(await response.json()).toEqual({
        error: 'POST is not allowed here: please send the request with GET.',
        code: 'method_not_allowed',
      });
    });
  });
});
