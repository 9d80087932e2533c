/** The form's two steps in their order, with the spec's rule that a failed save does not stop the send. */

import { submitForm, type SubmitFormDependencies } from '../../../lambdas/submit-form/submit-form';

const request = { name: 'Ada Owner', email: 'ada@example.com' };
const form = { request, hasBook: true, website: '' };

function dependencies(overrides: Partial<SubmitFormDependencies> = {}) {
  const steps: string[] = [];
  const logger = { info: jest.fn(), warn: jest.fn() };
  const deps: SubmitFormDependencies = {
    save: jest.fn(async () => {
      steps.push('save');
      return { id: 'request-1' };
    }),
    send: jest.fn(async () => {
      steps.push('send');
    }),
    logger,
    ...overrides,
  };
  return { deps, steps, logger };
}

test('saves, then sends, with the validated request', async () => {
  const { deps, steps } = dependencies();

  expect(await submitForm(form, deps)).toBe('sent');
  expect(steps).toEqual(['save', 'send']);
  expect(deps.send).toHaveBeenCalledWith(request);
});

test('sends even when saving failed, and logs the failure', async () => {
  const { deps, logger } = dependencies({
    save: jest.fn(async () => {
      throw new Error('DynamoDB PutItem failed');
    }),
  });

  expect(await submitForm(form, deps)).toBe('sent');
  expect(deps.send).toHaveBeenCalledWith(request);
  expect(logger.warn).toHaveBeenCalledWith(
    expect.stringContaining('not saved'),
    expect.objectContaining({ errorMessage: 'DynamoDB PutItem failed' }),
  );
});

test('lets a failed send throw, for the handler to map', async () => {
  const failure = new Error('SES refused');
  const { deps } = dependencies({ send: jest.fn(async () => Promise.reject(failure)) });

  await expect(submitForm(form, deps)).rejects.toBe(failure);
});

test('without the box ticked, neither saves nor sends', async () => {
  const { deps, steps } = dependencies();

  expect(await submitForm({ ...form, hasBook: false }, deps)).toBe('notConfirmed');
  expect(steps).toEqual([]);
});

test('with the honeypot filled, neither saves nor sends', async () => {
  const { deps, steps } = dependencies();

  expect(await submitForm({ ...form, website: 'https://spam.example/' }, deps)).toBe('honeypotFilled');
  expect(steps).toEqual([]);
});
