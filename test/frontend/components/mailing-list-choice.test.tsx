/**
 * The form's second box: with a mail provider, the reader's own choice, unticked, to join the
 * author's list (the author's words); without one, the form is as the specification draws it.
 */

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formCopy, mailingListChoice } from '../../../core/content/cheat-sheet';
import { CheatSheetForm } from '../../../frontend/src/components/cheat-sheet-form';
import { backendReplies, calls } from '../api-server';

async function submitAsReader(user: ReturnType<typeof userEvent.setup>, { join }: { readonly join: boolean }) {
  await user.type(screen.getByLabelText(formCopy.nameLabel), 'Ada Owner');
  await user.type(screen.getByLabelText(formCopy.emailLabel), 'ada@example.com');
  await user.click(screen.getByRole('checkbox', { name: formCopy.confirmLabel }));
  if (join) await user.click(screen.getByRole('checkbox', { name: mailingListChoice }));
  await user.click(screen.getByRole('button', { name: formCopy.submitLabel }));
  await screen.findByText('Cheat Sheet Sent');
}

describe('with a mail provider', () => {
  test("offers a separate box in the author's words, unticked", () => {
    render(<CheatSheetForm mailProvider="kit" />);
    const choice = screen.getByRole('checkbox', { name: mailingListChoice });
    expect(choice).not.toBeChecked();
    expect(choice).toHaveAttribute('name', 'mailingList');
    // The purchase box is still the specification's, and still a box of its own.
    expect(screen.getByRole('checkbox', { name: formCopy.confirmLabel })).not.toBe(choice);
  });

  test('a reader who leaves it unticked sends no mailing-list answer on either call', async () => {
    backendReplies();
    const user = userEvent.setup();
    render(<CheatSheetForm mailProvider="mailchimp" />);
    await submitAsReader(user, { join: false });
    expect(calls.map(({ body }) => body)).toEqual([
      expect.not.objectContaining({ mailingList: expect.anything() }),
      expect.not.objectContaining({ mailingList: expect.anything() }),
    ]);
  });

  test('a reader who ticks it sends mailingList true on both calls', async () => {
    backendReplies();
    const user = userEvent.setup();
    render(<CheatSheetForm mailProvider="mailchimp" />);
    await submitAsReader(user, { join: true });
    expect(calls.map(({ body }) => body)).toEqual([
      expect.objectContaining({ hasBook: true, mailingList: true }),
      expect.objectContaining({ hasBook: true, mailingList: true }),
    ]);
  });
});

describe('without a mail provider', () => {
  test('the form has the fields it always had, and one box', () => {
    const { container } = render(<CheatSheetForm />);
    const fields = [...container.querySelectorAll('form input, form button')].map(
      (element) => element.getAttribute('name') ?? element.getAttribute('type'),
    );
    expect(fields).toEqual(['name', 'email', 'website', 'hasBook', 'submit']);
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);
    expect(screen.queryByText(mailingListChoice)).toBeNull();
  });
});
