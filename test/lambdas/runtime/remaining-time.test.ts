/** The time left in an invocation: Lambda's own figure, or the function's timeout counted from the call. */

import { remainingTimeOf } from '../../../lambdas/runtime/remaining-time';

afterEach(() => jest.useRealTimers());

test("reads Lambda's remaining time from the context, each time it is asked", () => {
  let left = 5_000;
  const remaining = remainingTimeOf({ getRemainingTimeInMillis: () => left }, 10);

  expect(remaining()).toBe(5_000);
  left = 1_200;
  expect(remaining()).toBe(1_200);
});

test("without a context, counts down the function's timeout from the call", () => {
  jest.useFakeTimers({ now: new Date('2025-06-01T12:00:00.000Z') });
  const remaining = remainingTimeOf(undefined, 10);

  expect(remaining()).toBe(10_000);
  jest.setSystemTime(new Date('2025-06-01T12:00:03.500Z'));
  expect(remaining()).toBe(6_500);
});

test('without a context, never goes below zero once the timeout has passed', () => {
  jest.useFakeTimers({ now: new Date('2025-06-01T12:00:00.000Z') });
  const remaining = remainingTimeOf(undefined, 2);

  jest.setSystemTime(new Date('2025-06-01T12:00:05.000Z'));
  expect(remaining()).toBe(0);
});
