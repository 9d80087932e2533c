/** The send flow's decisions, with in-memory stand-ins for the table, the PDF and SES. */

import type { CheatSheetRequests } from '../../../lambdas/shared/cheat-sheet-requests';
import { DailyLimitReachedError, EmailServiceUnavailableError, StorageUnavailableError } from '../../../lambdas/shared/errors';
import type { CheatSheetRequestItem } from '../../../lambdas/shared/table-schema';
import type { OutgoingEmail } from '../../../lambdas/send-cheat-sheet/email-sender';
import { sendCheatSheet, type SendCheatSheetDependencies } from '../../../lambdas/send-cheat-sheet/send-cheat-sheet';

const now = new Date('2025-06-01T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
const visitor = { name: 'Ada', email: 'ada@example.com' };

function inMemoryTable(initial: CheatSheetRequestItem[]) {
  const items = [...initial];
  const requests: CheatSheetRequests = {
    create: async () => {
      throw new Error('not used');
    },
    findSince: async (email, since) =>
      items
        .filter((item) => item.email === email && item.requested_at >= since.toISOString())
        .sort((a, b) => b.requested_at.localeCompare(a.requested_at)),
    markSent: async (id, sentAt) => {
      const index = items.findIndex((item) => item.id === id && !item.cheat_sheet_sent);
      if (index === -1) return false;
      items[index] = { ...items[index]!, cheat_sheet_sent: true, sent_at: sentAt.toISOString() };
      return true;
    },
    createSent: async (request, sentAt) => {
      const item = { id: `new-${items.length}`, ...request, cheat_sheet_sent: true, requested_at: sentAt.toISOString(), sent_at: sentAt.toISOString() };
      items.push(item);
      return item;
    },
  };
  return { items, requests };
}

const request = (id: string, requestedHoursAgo: number, sentHoursAgo?: number): CheatSheetRequestItem => ({
  id,
  ...visitor,
  cheat_sheet_sent: sentHoursAgo !== undefined,
  requested_at: hoursAgo(requestedHoursAgo),
  ...(sentHoursAgo !== undefined ? { sent_at: hoursAgo(sentHoursAgo) } : {}),
});

function dependencies(requests: CheatSheetRequests, overrides: Partial<SendCheatSheetDependencies> = {}) {
  const sent: OutgoingEmail[] = [];
  const logged: string[] = [];
  const deps: SendCheatSheetDependencies = {
    requests,
    loadPdf: async () => new Uint8Array([37, 80, 68, 70]),
    sendEmail: async (email) => {
      sent.push(email);
      return { messageId: `message-${sent.length}` };
    },
    senderEmail: 'cheatsheet@example.com',
    attachmentFileName: 'mpc-100-day-cheat-sheet.pdf',
    dailyLimit: 3,
    now: () => now,
    logger: { error: (message: string) => void logged.push(message) },
    ...overrides,
  };
  return { deps, sent, logged };
}

describe('sendCheatSheet', () => {
  test('e-mails the PDF to the visitor and flags their newest unsent request', async () => {
    const table = inMemoryTable([request('older', 2), request('newer', 0.01)]);
    const { deps, sent } = dependencies(table.requests);

    const result = await sendCheatSheet(visitor, deps);

    expect(result).toEqual({ messageId: 'message-1', recordedAs: 'flagged-request' });
    expect(sent[0]).toMatchObject({ from: 'cheatsheet@example.com', to: 'ada@example.com' });
    expect(sent[0]!.attachment).toEqual({
      fileName: 'mpc-100-day-cheat-sheet.pdf',
      contentType: 'application/pdf',
      content: new Uint8Array([37, 80, 68, 70]),
    });
    expect(table.items.find((item) => item.id === 'newer')).toMatchObject({ cheat_sheet_sent: true, sent_at: now.toISOString() });
    expect(table.items.find((item) => item.id === 'older')).toMatchObject({ cheat_sheet_sent: false });
  });

  test('records a new sent item when the only unsent request is more than a day old', async () => {
    const table = inMemoryTable([request('stale', 30)]);
    const { deps } = dependencies(table.requests);

    const result = await sendCheatSheet(visitor, deps);

    expect(result.recordedAs).toBe('new-item');
    expect(table.items.find((item) => item.id === 'stale')).toMatchObject({ cheat_sheet_sent: false });
  });

  test('refuses a send once the address had three sends in the last 24 hours', async () => {
    const table = inMemoryTable([request('a', 20, 20), request('b', 10, 10), request('c', 1, 1), request('new', 0)]);
    const { deps, sent } = dependencies(table.requests);

    await expect(sendCheatSheet(visitor, deps)).rejects.toEqual(new DailyLimitReachedError(3));
    expect(sent).toEqual([]);
  });

  test('counts sends by when they were sent: a day-old request sent an hour ago counts', async () => {
    // Requested 23 h ago but sent only an hour ago; plus two sends within the day.
    const table = inMemoryTable([request('late', 23, 1), request('b', 5, 5), request('c', 2, 2)]);
    const { deps } = dependencies(table.requests);

    await expect(sendCheatSheet(visitor, deps)).rejects.toBeInstanceOf(DailyLimitReachedError);
  });

  test('sends again once the oldest of three sends is more than 24 hours old', async () => {
    const table = inMemoryTable([request('a', 25, 25), request('b', 10, 10), request('c', 1, 1)]);
    const { deps, sent } = dependencies(table.requests);

    await sendCheatSheet(visitor, deps);

    expect(sent).toHaveLength(1);
  });

  test('honours a different daily limit', async () => {
    const table = inMemoryTable([request('a', 1, 1)]);
    const { deps } = dependencies(table.requests, { dailyLimit: 1 });

    await expect(sendCheatSheet(visitor, deps)).rejects.toEqual(new DailyLimitReachedError(1));
  });

  test('records nothing when SES fails', async () => {
    const table = inMemoryTable([request('new', 0)]);
    const { deps } = dependencies(table.requests, {
      sendEmail: async () => {
        throw new EmailServiceUnavailableError('down');
      },
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toBeInstanceOf(EmailServiceUnavailableError);
    expect(table.items[0]).toMatchObject({ cheat_sheet_sent: false });
  });

  test('still succeeds, and logs, when the e-mail went out but the send cannot be recorded', async () => {
    const table = inMemoryTable([request('new', 0)]);
    const failingMark: CheatSheetRequests = {
      ...table.requests,
      markSent: async () => {
        throw new StorageUnavailableError('DynamoDB UpdateItem failed');
      },
    };
    const { deps, sent, logged } = dependencies(failingMark);

    const result = await sendCheatSheet(visitor, deps);

    expect(result.recordedAs).toBe('not-recorded');
    expect(sent).toHaveLength(1);
    expect(logged).toEqual(['Cheat sheet sent but the send could not be recorded']);
  });

  test('records a new item when a concurrent send flagged the request first', async () => {
    const table = inMemoryTable([request('new', 0)]);
    const { deps } = dependencies({ ...table.requests, markSent: async () => false });

    const result = await sendCheatSheet(visitor, deps);

    expect(result.recordedAs).toBe('new-item');
  });
});
