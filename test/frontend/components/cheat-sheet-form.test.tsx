import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CheatSheetForm } from '../../../frontend/src/components/cheat-sheet-form';
import { verifySolution, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import {
  backendReplies,
  calls,
  challengeFetches,
  idempotencyKeys,
  json,
  networkError,
  proofHeaders,
} from '../api-server';
import { issueChallenge, keysOf } from '../../../lambdas/limits/proof-of-work-challenge';
import { formPrivacyNotice } from '../../../core/content/privacy';

/** The toast titled `title`, in the page's notifications region. */
const toastTitled = (title: string) =>
  within(screen.getByRole('region', { name: 'Notifications' }))
    .getByText(title)
    .closest('li')!;

function renderForm() {
  const user = userEvent.setup();
  render(<CheatSheetForm />);
  return { user };
}

async function fillIn(user: ReturnType<typeof userEvent.setup>, { tick = true } = {}) {
  // user-event keeps its own copy of a field's value and misses the form's reset() after a
  // success (browsers do not): clear first, as a visitor would select and overwrite.
  await user.clear(screen.getByLabelText('Name'));
  await user.type(screen.getByLabelText('Name'), 'Ada Owner');
  await user.clear(screen.getByLabelText('Email'));
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  if (tick) await user.click(screen.getByRole('checkbox', { name: 'I confirm that I have purchased the book' }));
}

const submitButton = () => screen.getByRole('button', { name: 'Send Me the Cheat Sheet' });

describe('the cheat-sheet form', () => {
  test('shows the name and email fields with their placeholders', () => {
    renderForm();
    expect(screen.getByLabelText('Name')).toHaveAttribute('placeholder', 'Your name');
    expect(screen.getByLabelText('Email')).toHaveAttribute('placeholder', 'you@example.com');
  });

  test('links to the privacy page from a short notice under the form', () => {
    renderForm();
    // The notice's words are the author's (content/privacy.yaml), whatever they say.
    expect(screen.getByRole('link', { name: formPrivacyNotice.linkText })).toHaveAttribute('href', '/privacy');
  });

  test('requires a name', () => {
    renderForm();
    expect(screen.getByLabelText('Name')).toBeRequired();
  });

  test('requires an email in a valid format, checked by the browser', async () => {
    const { user } = renderForm();
    const email = screen.getByLabelText('Email');
    expect(email).toBeRequired();
    expect(email).toHaveAttribute('type', 'email');
    await user.type(email, 'not-an-email');
    expect(email).toBeInvalid();
  });

  test('does not submit when the fields are empty', async () => {
    backendReplies();
    const { user } = renderForm();
    await user.click(screen.getByRole('checkbox'));
    await user.click(submitButton());
    expect(calls).toHaveLength(0);
  });

  test('asks the visitor to confirm the purchase and sends nothing when the box is unticked', async () => {
    backendReplies();
    const { user } = renderForm();
    await fillIn(user, { tick: false });
    await user.click(submitButton());

    expect(await screen.findByText('Verification Required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm that you have purchased the book')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  test('saves the request, then asks for the e-mail, in that order, with name, email and the empty honeypot', async () => {
    backendReplies();
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    await screen.findByText('Cheat Sheet Sent');
    expect(calls).toEqual([
      {
        path: '/api/cheat-sheet-requests',
        body: { name: 'Ada Owner', email: 'ada@example.com', website: '', hasBook: true },
      },
      {
        path: '/api/send-cheat-sheet',
        body: { name: 'Ada Owner', email: 'ada@example.com', website: '', hasBook: true },
      },
    ]);
  });

  test('sends one new Idempotency-Key per submission on both calls, and a new one after a success', async () => {
    backendReplies();
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());
    await screen.findByText('Cheat Sheet Sent');
    await fillIn(user);
    await user.click(submitButton());
    await waitFor(() => expect(calls).toHaveLength(4));

    const [first, second, third, fourth] = idempotencyKeys;
    expect(first).toEqual(expect.any(String));
    expect(second).toBe(first);
    expect(third).toEqual(expect.any(String));
    expect(third).not.toBe(first);
    expect(fourth).toBe(third);
  });

  test('when the send needs a proof of work, solves the challenge and sends it in X-Cheat-Sheet-Proof', async () => {
    const secret = 'the deployment secret of this test';
    const challenge = await issueChallenge(secret);
    backendReplies({ challenge: json({ required: true, challenge }) });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    await screen.findByText('Cheat Sheet Sent');
    expect(challengeFetches.count).toBe(1);
    expect(proofHeaders[0]).toBeNull();
    const payload = JSON.parse(atob(proofHeaders[1]!)) as Payload;
    const keys = keysOf(secret);
    const verdict = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: keys.challenge,
      hmacKeySignatureSecret: keys.key,
    });
    expect(verdict.verified).toBe(true);
  });

  test('when the send needs no proof of work, sends no proof header', async () => {
    backendReplies();
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    await screen.findByText('Cheat Sheet Sent');
    expect(proofHeaders).toEqual([null, null]);
  });

  test("when no challenge can be had, shows the failed send's error and asks for no e-mail", async () => {
    backendReplies({
      challenge: json({ error: 'Something went wrong on our side. Please try again later.', code: 'unexpected' }, 500),
    });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    const dialog = await screen.findByRole('dialog', { name: 'Error Details' });
    expect(within(dialog).getByText('Something went wrong on our side. Please try again later.')).toBeInTheDocument();
    expect(screen.getByText('Error Processing Request')).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toEqual(['/api/cheat-sheet-requests']);
  });

  test('has a honeypot field people never meet: unlabelled, hidden from screen readers, out of the tab order', () => {
    const { container } = render(<CheatSheetForm />);
    const honeypot = container.querySelector<HTMLInputElement>('input[name="website"]')!;

    expect(honeypot).toHaveAttribute('type', 'text');
    expect(honeypot).toHaveAttribute('tabindex', '-1');
    expect(honeypot).toHaveAttribute('autocomplete', 'off');
    expect(honeypot.closest('[aria-hidden="true"]')).toHaveClass('form-honeypot');
    expect(honeypot.labels).toHaveLength(0);
    expect(honeypot).not.toHaveAttribute('aria-label');
    // Not among the fields a screen reader offers.
    expect(screen.queryAllByRole('textbox').map((input) => input.getAttribute('name'))).toEqual(['name', 'email']);
  });

  test('sends what a script typed into the honeypot with both calls', async () => {
    backendReplies();
    const { user } = renderForm();
    await fillIn(user);
    const honeypot = document.querySelector<HTMLInputElement>('input[name="website"]')!;
    await user.type(honeypot, 'https://spam.example/');
    await user.click(submitButton());

    await screen.findByText('Cheat Sheet Sent');
    expect(calls.map((call) => (call.body as { website: string }).website)).toEqual([
      'https://spam.example/',
      'https://spam.example/',
    ]);
  });

  test('skips the honeypot when tabbing from the e-mail field to the checkbox', async () => {
    const { user } = renderForm();
    await user.click(screen.getByLabelText('Email'));

    await user.tab();

    expect(screen.getByRole('checkbox', { name: 'I confirm that I have purchased the book' })).toHaveFocus();
  });

  test('reads Submitting... and is disabled while the request is under way', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    backendReplies({
      send: async () => {
        await held;
        return json({ success: true, message: 'sent' })();
      },
    });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    const busy = await screen.findByRole('button', { name: 'Submitting...' });
    expect(busy).toBeDisabled();
    release();
    expect(await screen.findByRole('button', { name: 'Send Me the Cheat Sheet' })).toBeEnabled();
  });

  test('on success shows the Cheat Sheet Sent toast and empties the form', async () => {
    backendReplies();
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    expect(await screen.findByText('Cheat Sheet Sent')).toBeInTheDocument();
    expect(screen.getByText("We've sent the cheat sheet to your email. Please check your inbox.")).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByRole('checkbox')).not.toBeChecked();
  });

  test('still sends the cheat sheet when saving the request fails, and logs the failure', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    backendReplies({ save: json({ error: 'Table unavailable' }, 503) });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    expect(await screen.findByText('Cheat Sheet Sent')).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toEqual(['/api/cheat-sheet-requests', '/api/send-cheat-sheet']);
    expect(logged).toHaveBeenCalledWith('Saving the cheat-sheet request failed:', 503, 'Table unavailable');
    logged.mockRestore();
  });

  test('when the network fails, shows Submission Failed for 8 seconds and opens the details', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    backendReplies({ save: networkError, send: networkError });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    expect(await screen.findByText('Submission Failed')).toBeInTheDocument();
    expect(screen.getByText('There was an error processing your request. Please try again.')).toBeInTheDocument();
    expect(toastTitled('Submission Failed')).toHaveStyle({ animationDuration: '8000ms' });
    expect(screen.getByRole('dialog', { name: 'Error Details' })).toBeVisible();
    jest.restoreAllMocks();
  });

  test('when the reply is not the function JSON, shows the edge function error and its status', async () => {
    backendReplies({
      send: () => new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    const dialog = await screen.findByRole('dialog', { name: 'Error Details' });
    expect(within(dialog).getByText('Edge function error: HTTP 502 Bad Gateway')).toBeInTheDocument();
    expect(screen.getByText('Error Processing Request')).toBeInTheDocument();
    expect(
      screen.getByText('There was a problem sending your cheat sheet. See details for more information.'),
    ).toBeInTheDocument();
  });

  test('when a successful reply carries no data, the dialog shows the default message', async () => {
    backendReplies({ send: () => new Response('', { status: 200 }) });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    const dialog = await screen.findByRole('dialog', { name: 'Error Details' });
    expect(within(dialog).getByText('Failed to send cheat sheet. Please try again later.')).toBeInTheDocument();
    expect(screen.getByText('Error Processing Request')).toBeInTheDocument();
  });

  test('the dialog repeats the toast for screen readers, since the modal makes the toast inert', async () => {
    backendReplies({ save: networkError, send: networkError });
    jest.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    const dialog = await screen.findByRole('dialog', { name: 'Error Details' });
    expect(dialog).toHaveAccessibleDescription(
      expect.stringContaining('Submission Failed. There was an error processing your request. Please try again.'),
    );
  });

  test('refuses a name of spaces only, as the browser checks it', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Name'), '   ');
    expect(screen.getByLabelText('Name')).toBeInvalid();
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), ' Ada ');
    expect(screen.getByLabelText('Name')).toBeValid();
  });

  test('when the function answers success false, the dialog shows its error', async () => {
    backendReplies({ send: json({ success: false, error: 'SES is throttling requests' }, 503) });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    const dialog = await screen.findByRole('dialog', { name: 'Error Details' });
    expect(within(dialog).getByText('SES is throttling requests')).toBeInTheDocument();
    expect(screen.getByText('Error Processing Request')).toBeInTheDocument();
  });

  test('when the function answers success false with only a message, the dialog shows the message', async () => {
    backendReplies({ send: json({ success: false, message: 'Try later' }) });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    const dialog = await screen.findByRole('dialog', { name: 'Error Details' });
    expect(within(dialog).getByText('Try later')).toBeInTheDocument();
  });

  test('when the function answers success false with no text, the dialog shows the default message', async () => {
    backendReplies({ send: json({ success: false }) });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    const dialog = await screen.findByRole('dialog', { name: 'Error Details' });
    expect(within(dialog).getByText('Failed to send cheat sheet. Please try again later.')).toBeInTheDocument();
  });

  test.each(['The sender domain is not verified', 'Please VERIFY the sender identity'])(
    'a %j error shows the inline configuration alert and a 10 s toast, and no dialog',
    async (error) => {
      backendReplies({ send: json({ success: false, error }, 502) });
      const { user } = renderForm();
      await fillIn(user);
      await user.click(submitButton());

      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText('Email Configuration Error')).toBeInTheDocument();
      expect(
        within(alert).getByText(
          'There was an issue sending your email. Our team has been notified. Please try again later or contact support if the issue persists.',
        ),
      ).toBeInTheDocument();
      expect(await screen.findByText('Domain Verification Error')).toBeInTheDocument();
      expect(
        screen.getByText('The email could not be sent due to domain verification issues. Please contact support.'),
      ).toBeInTheDocument();
      expect(toastTitled('Domain Verification Error')).toHaveStyle({ animationDuration: '10000ms' });
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    },
  );

  test('keeps what the visitor typed when sending fails', async () => {
    backendReplies({ send: json({ success: false, error: 'Nope' }, 500) });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(submitButton());

    await screen.findByRole('dialog');
    expect(screen.getByLabelText('Name')).toHaveValue('Ada Owner');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByRole('checkbox')).toBeChecked();
  });
});

describe('the toasts', () => {
  test('a toast without a duration in the spec stays 4 seconds, in the Notifications region', async () => {
    const { user } = renderForm();
    await fillIn(user, { tick: false });
    await user.click(submitButton());

    expect(await screen.findByText('Verification Required')).toBeInTheDocument();
    expect(toastTitled('Verification Required')).toHaveStyle({ animationDuration: '4000ms' });
    expect(screen.getByRole('region', { name: 'Notifications' })).toHaveAttribute('aria-live', 'polite');
  });

  test('a toast goes when its time is up', async () => {
    const { user } = renderForm();
    await fillIn(user, { tick: false });
    await user.click(submitButton());

    fireEvent.animationEnd(toastTitled('Verification Required'));

    expect(screen.queryByText('Verification Required')).not.toBeInTheDocument();
  });

  test('its close button removes it', async () => {
    const { user } = renderForm();
    await fillIn(user, { tick: false });
    await user.click(submitButton());

    await user.click(within(toastTitled('Verification Required')).getByRole('button', { name: 'Close toast' }));

    expect(screen.queryByText('Verification Required')).not.toBeInTheDocument();
  });

  test('the newest toast comes first', async () => {
    backendReplies();
    const { user } = renderForm();
    await fillIn(user, { tick: false });
    await user.click(submitButton());
    await user.click(screen.getByRole('checkbox'));
    await user.click(submitButton());
    await screen.findByText('Cheat Sheet Sent');

    const titles = within(screen.getByRole('region', { name: 'Notifications' }))
      .getAllByRole('listitem')
      .map((toast) => toast.querySelector('.toast__title')?.textContent);
    expect(titles).toEqual(['Cheat Sheet Sent', 'Verification Required']);
  });
});

describe('the Error Details dialog', () => {
  async function openDialog(user: ReturnType<typeof userEvent.setup>) {
    await fillIn(user);
    await user.click(submitButton());
    return screen.findByRole('dialog', { name: 'Error Details' });
  }

  test('suggests trying again, checking the e-mail and contacting support', async () => {
    backendReplies({ send: json({ success: false, error: 'Nope' }, 500) });
    const { user } = renderForm();
    const dialog = await openDialog(user);
    const suggestions = within(dialog)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(suggestions).toEqual([
      'Try submitting the form again.',
      'Check that your email address is correct.',
      'Contact support if the problem persists.',
    ]);
  });

  test('Close closes it and sends nothing more', async () => {
    backendReplies({ send: json({ success: false, error: 'Nope' }, 500) });
    const { user } = renderForm();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(submitButton()).toHaveFocus();
    expect(calls).toHaveLength(2);
  });

  test('Try Again closes it and submits again after 500 ms', async () => {
    jest.useFakeTimers();
    try {
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      render(<CheatSheetForm />);
      backendReplies({ send: json({ success: false, error: 'Nope' }, 500) });
      const dialog = await openDialog(user);
      expect(calls).toHaveLength(2);

      backendReplies(); // the second attempt succeeds
      await user.click(within(dialog).getByRole('button', { name: 'Try Again' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Send Me the Cheat Sheet' })).toHaveFocus();

      act(() => jest.advanceTimersByTime(499));
      expect(screen.getByRole('button', { name: 'Send Me the Cheat Sheet' })).toBeEnabled();
      act(() => jest.advanceTimersByTime(1));
      expect(screen.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
      await waitFor(() => expect(calls).toHaveLength(4));
      expect(calls[3]).toEqual({
        path: '/api/send-cheat-sheet',
        body: { name: 'Ada Owner', email: 'ada@example.com', website: '', hasBook: true },
      });
      expect(await screen.findByText('Cheat Sheet Sent')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  test("Try Again sends the first attempt's Idempotency-Key again, on both calls", async () => {
    jest.useFakeTimers();
    try {
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      render(<CheatSheetForm />);
      backendReplies({ send: json({ success: false, error: 'Nope' }, 500) });
      const dialog = await openDialog(user);

      backendReplies();
      await user.click(within(dialog).getByRole('button', { name: 'Try Again' }));
      act(() => jest.advanceTimersByTime(500));
      await waitFor(() => expect(calls).toHaveLength(4));

      expect(idempotencyKeys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(idempotencyKeys).toEqual([idempotencyKeys[0], idempotencyKeys[0], idempotencyKeys[0], idempotencyKeys[0]]);
    } finally {
      jest.useRealTimers();
    }
  });
});
