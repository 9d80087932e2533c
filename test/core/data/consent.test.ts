/** The consent a request records: with a mail provider, it names the provider and keeps the reader's answer to the list box. */

import { consentRecordAt, joinedMailingList } from '../../../core/data/consent';
import { formCopy, mailingListChoice } from '../../../core/content/cheat-sheet';
import { formPrivacyNotice } from '../../../core/content/privacy';

const at = new Date('2026-03-09T10:00:00.000Z');

test('without a mail provider: the time, the confirmation ticked and the versions, and no provider', () => {
  const record = consentRecordAt(at);
  expect(record).toMatchObject({ at: at.toISOString(), statement: 'I confirm that I have purchased the book' });
  expect(record).not.toHaveProperty('mail_provider');
  expect(record).not.toHaveProperty('notice');
  expect(record).not.toHaveProperty('mailing_list');
});

test('with one: names it, and keeps the note under the form as the reader read it', () => {
  const record = consentRecordAt(at, 'mailchimp');
  expect(record.mail_provider).toBe('Mailchimp');
  expect(record.notice).toBe(
    "We use your name and e-mail to send you the cheat sheet and, only if you tick the box above, to add you to the author's mailing list at Mailchimp.",
  );
  expect(record.notice).not.toBe(formPrivacyNotice.text);
});

test('with one, a reader who left the list box unticked: both answers with their words, and not joined', () => {
  const record = consentRecordAt(at, 'kit');
  expect(record.statement).toBe(formCopy.confirmLabel);
  expect(record.mailing_list).toEqual({ joined: false, statement: mailingListChoice });
  expect(joinedMailingList({ consent: record })).toBe(false);
});

test('with one, a reader who ticked it: joined, with the words they ticked', () => {
  const record = consentRecordAt(at, 'kit', true);
  expect(record.mailing_list).toEqual({ joined: true, statement: mailingListChoice });
  expect(joinedMailingList({ consent: record })).toBe(true);
});

test('a request saved before the box existed never counts as joined', () => {
  expect(joinedMailingList({ consent: { at: at.toISOString() } as never })).toBe(false);
  expect(joinedMailingList({})).toBe(false);
});
