/**
 * The form's two steps in their order, mapped from their typed outcomes: the box first, a failed
 * save does not stop the send, a refused request is said as it is, the failure's code picks the page.
 */

import { failureKinds, type FailureKindName } from '../../../core/api/catalogue/failures';
import { submitForm, type StepOutcome, type SubmitFormSteps } from '../../../lambdas/submit-form/submit-form';

const request = { name: 'Ada Owner', email: 'ada@example.com' };
const form = { request, hasBook: true };

/** A failed step as the catalogue describes the kind, with the message given. */
function failed(kind: FailureKindName, message = 'A message.'): StepOutcome {
  const { status, code } = failureKinds[kind];
  return { ok: false, failure: { statusCode: status, message, code } };
}

const done: StepOutcome = { ok: true };

function steps(outcomes: { save?: StepOutcome; send?: StepOutcome } = {}) {
  const calls: string[] = [];
  const fake: SubmitFormSteps = {
    save: jest.fn(async () => {
      calls.push('save');
      return outcomes.save ?? done;
    }),
    send: jest.fn(async () => {
      calls.push('send');
      return outcomes.send ?? done;
    }),
  };
  return { fake, calls };
}

test('saves, then sends, the same request, and lands on Cheat Sheet Sent', async () => {
  const { fake, calls } = steps();

  expect(await submitForm(form, fake)).toEqual({ outcome: 'sent' });
  expect(calls).toEqual(['save', 'send']);
  expect(fake.save).toHaveBeenCalledWith(request);
  expect(fake.send).toHaveBeenCalledWith(request);
});

test('without the box ticked, neither saves nor sends: Verification Required', async () => {
  const { fake, calls } = steps();

  expect(await submitForm({ request, hasBook: false }, fake)).toEqual({ outcome: 'notConfirmed' });
  expect(calls).toEqual([]);
});

test('sends even when saving failed, as the page does', async () => {
  const { fake, calls } = steps({ save: failed('storageUnavailable') });

  expect(await submitForm(form, fake)).toEqual({ outcome: 'sent' });
  expect(calls).toEqual(['save', 'send']);
});

test('stops at a request the save step refuses, and says why', async () => {
  const { fake, calls } = steps({ save: failed('invalidRequest', 'Please enter your name.') });

  expect(await submitForm(form, fake)).toEqual({ refusal: { statusCode: 400, message: 'Please enter your name.' } });
  expect(calls).toEqual(['save']);
});

test('says the send step refusing the request itself (no origin secret) as it is', async () => {
  const { fake } = steps({ send: failed('untrustedOrigin', 'Please use the site.') });

  expect(await submitForm(form, fake)).toEqual({ refusal: { statusCode: 403, message: 'Please use the site.' } });
});

test.each<[string, FailureKindName]>([
  ["the address's daily cap (429)", 'addressDailyCapReached'],
  ["the client's hourly cap (429)", 'clientHourlySendCapReached'],
  ['the daily send budget (503)', 'dailySendBudgetSpent'],
  ['SES rejecting the message (502)', 'emailRejected'],
  ['SES failing (503)', 'emailServiceUnavailable'],
  ['an unexpected failure (500)', 'unexpected'],
])('lands on Error Processing Request when the send fails on %s', async (_, kind) => {
  expect(await submitForm(form, steps({ send: failed(kind) }).fake)).toEqual({ outcome: 'notSent' });
});

test('lands on the email configuration page when the sender is not verified (code sender_not_verified)', async () => {
  expect(await submitForm(form, steps({ send: failed('senderNotVerified') }).fake)).toEqual({
    outcome: 'emailConfigurationError',
  });
});

test('picks the page by the code, not by words in the message', async () => {
  const wordy = failed('emailRejected', 'The sender domain is not verified.');

  expect(await submitForm(form, steps({ send: wordy }).fake)).toEqual({ outcome: 'notSent' });
});
