/** The consent a request records: with a mail provider, it names the provider the reader was told of. */

import { consentRecordAt } from '../../../core/data/consent';
import { formPrivacyNotice } from '../../../core/content/privacy';

const at = new Date('2026-03-09T10:00:00.000Z');

test('without a mail provider: the time, the confirmation ticked and the versions, and no provider', () => {
  const record = consentRecordAt(at);
  expect(record).toMatchObject({ at: at.toISOString(), statement: 'I confirm that I have purchased the book' });
  expect(record).not.toHaveProperty('mail_provider');
  expect(record).not.toHaveProperty('notice');
});

test('with one: names it, and keeps the note under the form as the reader read it', () => {
  const record = consentRecordAt(at, 'mailchimp');
  expect(record.mail_provider).toBe('Mailchimp');
  expect(record.notice).toBe(
    "We use your name and e-mail to send you the cheat sheet and to add you to the author's mailing list at Mailchimp.",
  );
  expect(record.notice).not.toBe(formPrivacyNotice.text);
});
