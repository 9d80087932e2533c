/**
 * The form's two steps in their order, read as the page reads the JSON routes' replies: the box
 * first, a failed save does not stop the send, a refused request is said as it is.
 */

import { submitForm, type StepReply, type SubmitFormSteps } from '../../../lambdas/submit-form/submit-form';

const request = { name: 'Ada Owner', email: 'ada@example.com' };
const form = { request, hasBook: true };

function steps(replies: { save?: StepReply; send?: StepReply } = {}) {
  const calls: string[] = [];
  const fake: SubmitFormSteps = {
    save: jest.fn(async () => {
      calls.push('save');
      return replies.save ?? { statusCode: 201 };
    }),
    send: jest.fn(async () => {
      calls.push('send');
      return replies.send ?? { statusCode: 200 };
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
  const { fake, calls } = steps({ save: { statusCode: 503, error: 'Storage is unavailable.' } });

  expect(await submitForm(form, fake)).toEqual({ outcome: 'sent' });
  expect(calls).toEqual(['save', 'send']);
});

test('stops at a request the save route refuses, and says why', async () => {
  const { fake, calls } = steps({ save: { statusCode: 400, error: 'Please enter your name.' } });

  expect(await submitForm(form, fake)).toEqual({ refusal: { statusCode: 400, message: 'Please enter your name.' } });
  expect(calls).toEqual(['save']);
});

test('says the send route refusing the request itself (no origin secret) as it is', async () => {
  const { fake } = steps({ send: { statusCode: 403, error: 'Please use the site.' } });

  expect(await submitForm(form, fake)).toEqual({ refusal: { statusCode: 403, message: 'Please use the site.' } });
});

test.each([
  ['a limit (429)', { statusCode: 429, error: 'This email address has already received the cheat sheet 3 times.' }],
  ['the budget (503)', { statusCode: 503, error: "We can't send the cheat sheet right now. Please try again later." }],
  ['SES failing (502)', { statusCode: 502, error: 'The email service is unavailable.' }],
  ['a reply without an error', { statusCode: 500 }],
])('lands on Error Processing Request when the send fails on %s', async (_, send) => {
  expect(await submitForm(form, steps({ send }).fake)).toEqual({ outcome: 'notSent' });
});

test.each(['The sender domain is not verified.', 'Please verify the sender identity.'])(
  "lands on the email configuration page when the send's error says %p, the page's own rule",
  async (error) => {
    expect(await submitForm(form, steps({ send: { statusCode: 502, error } }).fake)).toEqual({
      outcome: 'emailConfigurationError',
    });
  },
);
