/**
 * The catalogue derives, nothing restates: a failure kind added to a copy of the failure catalogue
 * (`core/api/catalogue/failures.ts`), and nowhere else, shows in the routes' replies, their
 * failure bodies, the form's refusals, what the functions' metrics cover and the OpenAPI document;
 * a route added to a copy of the routes shows in the document.
 */
import { failureKinds, type FailureCatalogue } from '../../../core/api/catalogue/failures';
import { productRouteList, type ProductRouteName } from '../../../core/api/catalogue/routes';
import { serviceMetricsOf } from '../../../core/api/catalogue/service-metrics';
import { formRefusalStatusesOf } from '../../../core/api/form-replies';
import { failureBodySchemaOf, failureStatusesOf, jsonRoutes } from '../../../core/api/replies';
import { buildOpenApiDocument } from '../../../infra/tools/openapi-document';

const queueFull = {
  code: 'queue_full',
  status: 503,
  publicMessage: () => 'Too many readers at once. Please try again in a minute.',
  metric: { failure: 'SesUnavailable' },
  alarm: { threshold: 3, reason: 'A test kind.' },
  runbook: '#ses-unavailable',
  causes: { sendCheatSheet: [{ when: 'The send queue is full.' }] },
} as const;

const tooHasty = {
  code: 'too_hasty',
  status: 409,
  publicMessage: ({ message }: { message: string }) => message,
  metric: null,
  runbook: '#api-4xx',
  causes: {
    saveRequest: [{ example: 'sameSecond', when: 'Sent twice in one second.', message: 'Slow down, please.' }],
    submitForm: [{ example: 'sameSecond', when: 'Sent twice in one second.', message: 'Slow down, please.' }],
  },
} as const;

const copy: FailureCatalogue = { ...failureKinds, queueFull, tooHasty };
const sendRoute = jsonRoutes.find((route) => route.name === 'sendCheatSheet')!;
const saveRoute = jsonRoutes.find((route) => route.name === 'saveRequest')!;
const document = buildOpenApiDocument({ routes: productRouteList, failures: copy }) as any;

describe('a failure kind added to a copy of the catalogue', () => {
  test('is a cause of its status on its route in the JSON replies, with its message and code, and on no other route', () => {
    const status = failureStatusesOf(jsonRoutes, copy).find((candidate) => candidate.status === 503)!;

    expect(status.causes.sendCheatSheet).toContainEqual({
      name: 'queueFull',
      kind: 'queueFull',
      code: 'queue_full',
      when: 'The send queue is full.',
      message: 'Too many readers at once. Please try again in a minute.',
    });
    expect(status.causes.saveRequest?.map((cause) => cause.kind)).not.toContain('queueFull');
  });

  test("is a cause of its status, with its example's words, beside the kinds the real catalogue lists there", () => {
    const status = failureStatusesOf(jsonRoutes, copy).find((candidate) => candidate.status === 409);

    expect(status?.causes.saveRequest).toContainEqual(
      expect.objectContaining({ name: 'sameSecond', code: 'too_hasty', message: 'Slow down, please.' }),
    );
  });

  test("is a code its route's failure body accepts, and only its route's", () => {
    const body = { success: false, error: 'Too many readers at once.', code: 'queue_full' };

    expect(failureBodySchemaOf(sendRoute, copy)['~standard'].validate(body)).not.toHaveProperty('issues');
    expect(failureBodySchemaOf(sendRoute)['~standard'].validate(body)).toHaveProperty('issues');
    expect(
      failureBodySchemaOf(saveRoute, copy)['~standard'].validate({ error: 'x', code: 'queue_full' }),
    ).toHaveProperty('issues');
  });

  test("is one of the form route's refusals when it lists the form route", () => {
    const status = formRefusalStatusesOf(copy).find((candidate) => candidate.status === 409);

    expect(status?.causes).toEqual([
      { name: 'sameSecond', kind: 'tooHasty', when: 'Sent twice in one second.', message: 'Slow down, please.' },
    ]);
  });

  test('counts under the failure metric kinds its routes report', () => {
    const copyWithANewMetric: FailureCatalogue = {
      ...copy,
      queueFull: { ...queueFull, causes: { saveRequest: queueFull.causes.sendCheatSheet } },
    };

    expect(serviceMetricsOf(productRouteList, copyWithANewMetric)['save-request']?.failureMetricKinds).toContain(
      'SesUnavailable',
    );
    expect(serviceMetricsOf()['save-request']?.failureMetricKinds).not.toContain('SesUnavailable');
  });

  test('is an example of its status in the OpenAPI document, and a code of its failure schema', () => {
    const examples = document.paths['/api/send-cheat-sheet'].post.responses['503'].content['application/json'].examples;

    expect(examples.queueFull).toEqual({
      summary: 'The send queue is full.',
      value: { success: false, error: 'Too many readers at once. Please try again in a minute.', code: 'queue_full' },
    });
    expect(document.components.schemas.SendFailure.properties.code.enum).toContain('queue_full');
    expect(document.components.schemas.SaveFailure.properties.code.enum).not.toContain('queue_full');
  });

  test('brings a status new to a route into its OpenAPI document: the form page answers 409 only in the copy', () => {
    const real = buildOpenApiDocument({ routes: productRouteList, failures: failureKinds }) as any;
    expect(Object.keys(real.paths['/api/cheat-sheet-form'].post.responses)).not.toContain('409');
    expect(Object.keys(document.paths['/api/cheat-sheet-form'].post.responses)).toContain('409');
    const page = document.paths['/api/cheat-sheet-form'].post.responses['409'].content['text/html'].examples;
    expect(page.sameSecond.value).toContain('Slow down, please.');
  });

  test('leaves the real catalogue and its document as they are', () => {
    expect(failureKinds).not.toHaveProperty('queueFull');
    expect(JSON.stringify(buildOpenApiDocument())).not.toContain('queue_full');
  });
});

describe('a route added to a copy of the catalogue', () => {
  const send = productRouteList.find((route) => route.name === 'sendCheatSheet')!;
  const resend = {
    ...send,
    name: 'resendCheatSheet' as ProductRouteName,
    id: 'ResendCheatSheet',
    path: '/api/resend-cheat-sheet',
    openApi: { operationId: 'resendCheatSheet', summary: 'E-mail the cheat sheet again', description: 'A test route.' },
  };
  const failures: FailureCatalogue = {
    ...failureKinds,
    storageUnavailable: {
      ...failureKinds.storageUnavailable,
      causes: { ...failureKinds.storageUnavailable.causes, [resend.name]: [{ when: 'The database failed.' }] },
    },
  };
  const withResend = buildOpenApiDocument({ routes: [...productRouteList, resend], failures }) as any;

  test('is a path of the OpenAPI document, with its operation, its success reply and the failures that list it', () => {
    const post = withResend.paths['/api/resend-cheat-sheet'].post;

    expect(post.operationId).toBe('resendCheatSheet');
    expect(Object.keys(post.responses)).toEqual(['200', '503']);
    expect(post.responses['503'].content['application/json'].examples.storageUnavailable.summary).toBe(
      'The database failed.',
    );
  });
});
