import { failureKindList, failureKinds, type FailureKindName } from '../../../../core/api/catalogue/failures';
import { failureStatuses } from '../../../../core/api/replies';
import { failureMetricKinds } from '../../../../core/observability/product-metrics';

describe('the failure catalogue', () => {
  test.each(failureKindList.map((kind) => [kind.name, kind] as const))(
    '%s has a code, a 4xx or 5xx status, a public message and a runbook section',
    (_, kind) => {
      expect(kind.code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
      expect(kind.status).toBeGreaterThanOrEqual(400);
      expect(kind.status).toBeLessThan(600);
      expect(kind.publicMessage({ message: 'Words for the visitor.', limit: 3 }).length).toBeGreaterThan(0);
      expect(kind.runbook).toMatch(/^#[a-z0-9]+(-[a-z0-9]+)*$/);
    },
  );

  test('no two kinds share a code', () => {
    const codes = failureKindList.map((kind) => kind.code);

    expect(new Set(codes).size).toBe(codes.length);
  });

  test('no visitor error counts under a failure metric (the availability objective reads only 5xx)', () => {
    for (const kind of failureKindList) {
      const countsAsFailure = kind.metric !== null && 'failure' in kind.metric;
      if (kind.status < 500) expect([kind.name, countsAsFailure]).toEqual([kind.name, false]);
    }
  });

  test("SES refusing the visitor's own address is a 400 with its own code, counted as a refusal, never paged", () => {
    expect(failureKinds.recipientRejected).toMatchObject({
      code: 'recipient_rejected',
      status: 400,
      metric: { refusal: 'RecipientRejected' },
    });
  });

  test('every failure metric kind is counted by some failure kind', () => {
    const counted = failureKindList.flatMap((kind) =>
      kind.metric && 'failure' in kind.metric ? [kind.metric.failure] : [],
    );

    expect(new Set(counted)).toEqual(new Set(failureMetricKinds));
  });

  test('the limits count as their published refusal metrics', () => {
    expect(failureKinds.addressDailyCapReached.metric).toEqual({ refusal: 'AddressCapReached' });
    expect(failureKinds.clientHourlySendCapReached.metric).toEqual({ refusal: 'ClientCapReached' });
    expect(failureKinds.dailySendBudgetSpent.metric).toEqual({ refusal: 'SendBudgetRefused' });
  });

  test("each cause in the OpenAPI replies is answered with its kind's status", () => {
    for (const status of failureStatuses) {
      for (const causes of Object.values(status.causes)) {
        for (const cause of causes ?? [])
          expect([cause.name, failureKinds[cause.kind as FailureKindName].status]).toEqual([cause.name, status.status]);
      }
    }
  });

  test("only the unverified sender's message says 'domain' or 'verify', which the page keys its alert on", () => {
    const saying = failureKindList
      .filter((kind) => /domain|verify/i.test(kind.publicMessage({ message: '', limit: 3 })))
      .map((kind) => kind.code);

    expect(saying).toEqual(['sender_not_verified']);
  });
});
