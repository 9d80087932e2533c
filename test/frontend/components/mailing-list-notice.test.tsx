/** With a mail provider, the privacy page and the note under the form name it; without one, neither mentions a list. */

import { render, screen } from '@testing-library/react';
import { formPrivacyNotice } from '../../../core/content/privacy';
import { CheatSheetForm } from '../../../frontend/src/components/cheat-sheet-form';
import { PrivacyPage } from '../../../frontend/src/components/privacy-page';

describe('the privacy page', () => {
  test.each([
    ['kit', 'Kit', 'the author deletes you'],
    ['mailerlite', 'MailerLite', 'removes you from MailerLite too'],
    ['mailchimp', 'Mailchimp', 'deletes you from Mailchimp too'],
  ] as const)('with %s, names it and says what an erasure does there', (provider, name, erasure) => {
    render(<PrivacyPage mailProvider={provider} />);
    const section = screen.getByRole('region', { name: "The author's mailing list" });
    expect(section).toHaveTextContent(
      `Only if you tick it are your name and e-mail address also added to the author's mailing list at ${name}`,
    );
    expect(section).toHaveTextContent('if you leave it unticked, they go nowhere but to this site');
    expect(section).toHaveTextContent('a link to unsubscribe');
    expect(section).toHaveTextContent(erasure);
  });

  test("with the webhook, speaks of the author's own service", () => {
    render(<PrivacyPage mailProvider="webhook" />);
    expect(screen.getByRole('region', { name: "The author's mailing list" })).toHaveTextContent(
      "added to the author's own mailing-list service",
    );
  });

  test('without a provider, has no mailing-list section', () => {
    render(<PrivacyPage />);
    expect(screen.queryByRole('region', { name: "The author's mailing list" })).toBeNull();
  });
});

describe('the note under the form', () => {
  test("with a provider, says the reader joins the author's list there only by ticking the box", () => {
    render(<CheatSheetForm mailProvider="mailerlite" />);
    expect(
      screen.getByText(
        /to send you the cheat sheet and, only if you tick the box above, to add you to the author's mailing list at MailerLite\./,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(formPrivacyNotice.text)).toBeNull();
  });

  test("without one, is the author's own notice", () => {
    render(<CheatSheetForm />);
    expect(screen.getByText(formPrivacyNotice.text, { exact: false })).toBeInTheDocument();
    expect(screen.queryByText(/mailing list/)).toBeNull();
  });
});
