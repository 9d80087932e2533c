/** The send flow's decisions, with in-memory stand-ins for the table, the three limits, the PDF and SES. */

import type { CheatSheetRequests } from '../../../lambdas/requests/cheat-sheet-requests';
import { ProductError } from '../../../lambdas/runtime/errors';
import type { CheatSheetRequestItem } from '../../../core/data/tables';
import type { OutgoingEmail } from '../../../lambdas/mail/email-sender';
import {
  RequestNotClaimableError,
  sendCheatSheet,
  unsentRequestLookupIntervalMs,
  type SendCheatSheetDependencies,
} from '../../../lambdas/requests/send-cheat-sheet';
import type { CounterEntry, RollingCounter } from '../../../lambdas/limits/rolling-counter';
import type { AddressDailyCapCounter, AddressDailyCapSlot } from '../../../lambdas/limits/address-daily-cap';

const now = new Date('2025-06-01T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
const visitor = { name: 'Ada', email: 'ada@example.com' };

type StoredItem = CheatSheetRequestItem & { send_token?: string };

/** The requests table's rules (claimable states, tokens) over an array: the real table's are tested against dynalite. */
function inMemoryTable(initial: CheatSheetRequestItem[]) {
  const items: StoredItem[] = [...initial];
  const claimable = (item: StoredItem) =>
    item.delivery_status === 'requested' ||
    item.delivery_status === 'failed' ||
    (item.delivery_status === undefined && !item.cheat_sheet_sent);
  const settle = (id: string, token: string, changes: Partial<StoredItem>) => {
    const index = items.findIndex((item) => item.id === id && item.send_token === token);
    if (index === -1) return false;
    items[index] = { ...items[index]!, ...changes };
    return true;
  };
  const requests: CheatSheetRequests = {
    create: async () => {
      throw new Error('not used');
    },
    findNewestClaimable: async (email) =>
      items
        .filter((item) => item.email === email && claimable(item))
        .sort((a, b) => b.requested_at.localeCompare(a.requested_at))[0],
    claim: async (id, token, at) => {
      const index = items.findIndex((item) => item.id === id && (claimable(item) || item.send_token === token));
      if (index === -1) return false;
      items[index] = { ...items[index]!, delivery_status: 'sending', send_token: token, sending_at: at.toISOString() };
      return true;
    },
    createSending: async (request, token, at) => {
      const item: StoredItem = {
        id: `new-${items.length}`,
        ...request,
        cheat_sheet_sent: false,
        requested_at: at.toISOString(),
        delivery_status: 'sending',
        send_token: token,
      };
      items.push(item);
      return item;
    },
    claimSubmission: async () => undefined,
    findBySubmissionKey: async () => undefined,
    findById: async (id) => items.find((item) => item.id === id),
    markSent: async (id, token, messageId, at) =>
      settle(id, token, {
        delivery_status: 'sent',
        cheat_sheet_sent: true,
        sent_at: at.toISOString(),
        ses_message_id: messageId,
      })
        ? 'recorded'
        : 'not-held',
    markFailed: async (id, token, failureCode) =>
      settle(id, token, { delivery_status: 'failed', failure_code: failureCode }),
    markUnknown: async (id, token) => settle(id, token, { delivery_status: 'unknown' }),
    supersedeOlder: async () => [],
    markSuperseded: async () => false,
  };
  return { items, requests };
}

/** A quota with `free` slots left; records what was claimed and given back. */
function inMemoryAddressDailyCap(free: number) {
  const claims: Array<{ email: string; limit: number }> = [];
  const released: AddressDailyCapSlot[] = [];
  const quota: AddressDailyCapCounter = {
    takeSlot: async (email, at, limit) => {
      claims.push({ email, limit });
      if (free <= 0) return null;
      free -= 1;
      return { id: 'quota-id', sentAt: at.toISOString(), token: `claim-${claims.length}` };
    },
    release: async (claim) => {
      free += 1;
      released.push(claim);
    },
  };
  return { quota, claims, released, slotsLeft: () => free };
}

/** A rolling counter with `free` sends left; records what was claimed and given back, in order. */
function inMemoryCounter(free: number, log: string[] = [], name = 'counter') {
  const claims: Array<{ subject: string; limit: number }> = [];
  const released: CounterEntry[] = [];
  const counter: RollingCounter = {
    prepare: async () => undefined,
    count: async (subject, _at, limit) => {
      claims.push({ subject, limit });
      log.push(`claim ${name}`);
      if (free <= 0) return null;
      free -= 1;
      return { id: `${subject}#bucket`, token: `claim-${claims.length}` };
    },
    release: async (claim) => {
      free += 1;
      released.push(claim);
      log.push(`release ${name}`);
    },
  };
  return { counter, claims, released, sendsLeft: () => free };
}

const request = (id: string, requestedHoursAgo: number, sentHoursAgo?: number): CheatSheetRequestItem => ({
  id,
  ...visitor,
  cheat_sheet_sent: sentHoursAgo !== undefined,
  requested_at: hoursAgo(requestedHoursAgo),
  delivery_status: sentHoursAgo !== undefined ? 'sent' : 'requested',
  ...(sentHoursAgo !== undefined ? { sent_at: hoursAgo(sentHoursAgo) } : {}),
});

function dependencies(overrides: Partial<SendCheatSheetDependencies> = {}) {
  const sent: OutgoingEmail[] = [];
  const logged: string[] = [];
  const pauses: number[] = [];
  let tokens = 0;
  const deps: SendCheatSheetDependencies = {
    requests: inMemoryTable([]).requests,
    suppressions: { isSuppressed: async () => false },
    newToken: () => `token-${++tokens}`,
    addressDailyCapCounter: inMemoryAddressDailyCap(3).quota,
    hourlySendCapCounter: inMemoryCounter(10).counter,
    dailySendBudgetCounter: inMemoryCounter(500).counter,
    clientKey: 'keyed-hash-of-the-network',
    networkKey: 'keyed-hash-of-the-wider-network',
    loadPdf: async () => new Uint8Array([37, 80, 68, 70]),
    sendEmail: async (email) => {
      sent.push(email);
      return { messageId: `message-${sent.length}` };
    },
    senderEmail: 'cheatsheet@example.com',
    attachmentFileName: 'mpc-100-day-cheat-sheet.pdf',
    addressDailyCap: 3,
    clientHourlySendCap: 10,
    networkHourlySendCap: 30,
    dailySendBudget: 500,
    now: () => now,
    pause: async (ms) => void pauses.push(ms),
    logger: {
      error: (message: string) => void logged.push(`error: ${message}`),
      warn: (message: string) => void logged.push(`warn: ${message}`),
    },
    ...overrides,
  };
  return { deps, sent, logged, pauses };
}

const sesDown = async (): Promise<never> => {
  throw new ProductError('emailServiceUnavailable', 'down');
};

describe('sendCheatSheet', () => {
  test('e-mails the PDF to the visitor and records it on their newest unsent request, with the message id', async () => {
    const table = inMemoryTable([request('older', 2), request('newer', 0.01)]);
    const { deps, sent } = dependencies({ requests: table.requests });

    const result = await sendCheatSheet(visitor, deps);

    expect(result).toEqual({ messageId: 'message-1', requestId: 'newer', recordedAs: 'claimed-request' });
    expect(sent[0]!.requestId).toBe('newer');
    expect(sent[0]).toMatchObject({ from: 'cheatsheet@example.com', to: 'ada@example.com' });
    expect(sent[0]!.attachment).toEqual({
      fileName: 'mpc-100-day-cheat-sheet.pdf',
      contentType: 'application/pdf',
      content: new Uint8Array([37, 80, 68, 70]),
    });
    expect(table.items.find((item) => item.id === 'newer')).toMatchObject({
      cheat_sheet_sent: true,
      sent_at: now.toISOString(),
      delivery_status: 'sent',
      ses_message_id: 'message-1',
    });
    expect(table.items.find((item) => item.id === 'older')).toMatchObject({
      cheat_sheet_sent: false,
      delivery_status: 'requested',
    });
  });

  test.each([
    [true, "You also asked to join the author's mailing list: its e-mails come from Mailchimp"],
    [false, 'It is the only e-mail we send you.'],
  ])("follows the reader's stored answer to the mailing-list box (joined: %s)", async (joined, promise) => {
    const stored: CheatSheetRequestItem = {
      ...request('asked', 0.01),
      consent: { at: hoursAgo(0.01), mail_provider: 'Mailchimp', mailing_list: { joined, statement: 'Add me' } },
    };
    const { deps, sent } = dependencies({ requests: inMemoryTable([stored]).requests });

    await sendCheatSheet(visitor, deps);

    expect(sent[0]!.text).toContain(promise);
    expect(sent[0]!.html).toContain(promise.replace("'", '&#39;'));
  });

  test('claims the newest unsent request however old it is, as the contract says', async () => {
    const table = inMemoryTable([request('last-week', 24 * 7), request('sent', 1, 1)]);
    const { deps } = dependencies({ requests: table.requests });

    const result = await sendCheatSheet(visitor, deps);

    expect(result.recordedAs).toBe('claimed-request');
    expect(table.items.find((item) => item.id === 'last-week')).toMatchObject({
      cheat_sheet_sent: true,
      sent_at: now.toISOString(),
    });
  });

  test('looks again after a short pause when the index does not show the saved request yet', async () => {
    const table = inMemoryTable([request('just-saved', 0)]);
    let looks = 0;
    const laggingIndex: CheatSheetRequests = {
      ...table.requests,
      findNewestClaimable: async (email) => (++looks === 1 ? undefined : table.requests.findNewestClaimable(email)),
    };
    const { deps, pauses } = dependencies({ requests: laggingIndex });

    const result = await sendCheatSheet(visitor, deps);

    expect(result.recordedAs).toBe('claimed-request');
    expect(pauses).toEqual([unsentRequestLookupIntervalMs]);
    expect(table.items).toHaveLength(1);
  });

  test('records the send as a new item after three looks find no unsent request', async () => {
    const table = inMemoryTable([request('sent', 1, 1)]);
    const { deps, pauses } = dependencies({ requests: table.requests });

    const result = await sendCheatSheet(visitor, deps);

    expect(result.recordedAs).toBe('new-item');
    expect(pauses).toEqual([unsentRequestLookupIntervalMs, unsentRequestLookupIntervalMs]);
    expect(table.items[1]).toMatchObject({
      ...visitor,
      cheat_sheet_sent: true,
      requested_at: now.toISOString(),
      sent_at: now.toISOString(),
      delivery_status: 'sent',
    });
  });

  test('looks again at once when a parallel send claimed the request first', async () => {
    const table = inMemoryTable([request('older', 3), request('newer', 0)]);
    let claims = 0;
    const raced: CheatSheetRequests = {
      ...table.requests,
      claim: async (id, token, at) => {
        if (++claims === 1) {
          await table.requests.claim(id, 'the-parallel-send', at); // the parallel send wins this one
          return false;
        }
        return table.requests.claim(id, token, at);
      },
    };
    const { deps, pauses } = dependencies({ requests: raced });

    const result = await sendCheatSheet(visitor, deps);

    expect([result.requestId, result.recordedAs, pauses]).toEqual(['older', 'claimed-request', []]);
  });

  test('refuses with the per-address cap, sending nothing, when its counter has no slot left', async () => {
    const { deps, sent } = dependencies({ addressDailyCapCounter: inMemoryAddressDailyCap(0).quota });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({ kind: 'addressDailyCapReached', limit: 3 });
    expect(sent).toEqual([]);
  });

  test("claims the slot for the visitor's address with the configured limit", async () => {
    const quota = inMemoryAddressDailyCap(1);
    const { deps } = dependencies({ addressDailyCapCounter: quota.quota, addressDailyCap: 7 });

    await sendCheatSheet(visitor, deps);

    expect(quota.claims).toEqual([{ email: 'ada@example.com', limit: 7 }]);
  });

  test('gives the slot back and records the request failed, with its code, when SES provably took nothing', async () => {
    const table = inMemoryTable([request('new', 0)]);
    const quota = inMemoryAddressDailyCap(3);
    const { deps } = dependencies({
      requests: table.requests,
      addressDailyCapCounter: quota.quota,
      sendEmail: sesDown,
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({ kind: 'emailServiceUnavailable' });
    expect(quota.released).toEqual([{ id: 'quota-id', sentAt: now.toISOString(), token: 'claim-1' }]);
    expect(quota.slotsLeft()).toBe(3);
    expect(table.items[0]).toMatchObject({
      cheat_sheet_sent: false,
      delivery_status: 'failed',
      failure_code: 'email_service_unavailable',
    });
  });

  test('records the request unknown, keeps its slots and reports it when SES gave no answer after the call left', async () => {
    const table = inMemoryTable([request('new', 0)]);
    const quota = inMemoryAddressDailyCap(3);
    const reported: string[] = [];
    const { deps } = dependencies({
      requests: table.requests,
      addressDailyCapCounter: quota.quota,
      sendEmail: async () =>
        Promise.reject(
          new ProductError('emailServiceUnavailable', 'no answer', {
            cause: Object.assign(new Error('a request has exceeded the requestTimeout'), { name: 'TimeoutError' }),
          }),
        ),
      onOutcomeUnknown: () => reported.push('unknown'),
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({ kind: 'emailServiceUnavailable' });
    expect([table.items[0]!.delivery_status, quota.slotsLeft(), reported]).toEqual(['unknown', 2, ['unknown']]);
    expect(await table.requests.findNewestClaimable(visitor.email)).toBeUndefined();
  });

  test('refuses a suppressed mailbox before any slot, and records its request failed with the code', async () => {
    const table = inMemoryTable([request('new', 0)]);
    const client = inMemoryCounter(10);
    const { deps, sent } = dependencies({
      requests: table.requests,
      hourlySendCapCounter: client.counter,
      suppressions: { isSuppressed: async () => true },
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({ kind: 'addressSuppressed' });
    expect([sent, client.claims]).toEqual([[], []]);
    expect(table.items[0]).toMatchObject({ delivery_status: 'failed', failure_code: 'address_suppressed' });
  });

  test('a resend sends for its one request, and refuses when that request is claimed already', async () => {
    const table = inMemoryTable([request('older', 3), request('newer', 0)]);
    const { deps, sent } = dependencies({ requests: table.requests });

    const result = await sendCheatSheet(visitor, deps, { requestId: 'older' });
    await expect(sendCheatSheet(visitor, deps, { requestId: 'older' })).rejects.toBeInstanceOf(
      RequestNotClaimableError,
    );

    expect([result.requestId, sent.length, table.items[1]!.delivery_status]).toEqual(['older', 1, 'requested']);
  });

  test("still reports SES's failure, and warns, when the slot cannot be given back", async () => {
    const { quota } = inMemoryAddressDailyCap(3);
    const { deps, logged } = dependencies({
      addressDailyCapCounter: {
        ...quota,
        release: async () => Promise.reject(new ProductError('storageUnavailable', 'DynamoDB down')),
      },
      sendEmail: sesDown,
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({ kind: 'emailServiceUnavailable' });
    expect(logged).toEqual(['warn: Send failed and its daily cap slot could not be given back']);
  });

  test('claims no slot when the PDF cannot be read', async () => {
    const quota = inMemoryAddressDailyCap(3);
    const { deps } = dependencies({
      addressDailyCapCounter: quota.quota,
      loadPdf: async () => Promise.reject(new ProductError('cheatSheetUnavailable', 'missing')),
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({ kind: 'cheatSheetUnavailable' });
    expect(quota.claims).toEqual([]);
  });

  test('still succeeds, logs and reports it, when the e-mail went out but the send cannot be recorded', async () => {
    const table = inMemoryTable([request('new', 0)]);
    const failingMark: CheatSheetRequests = {
      ...table.requests,
      markSent: async () => {
        throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem failed');
      },
    };
    const reported: string[] = [];
    const { deps, sent, logged } = dependencies({
      requests: failingMark,
      onNotRecorded: () => reported.push('not recorded'),
    });

    const result = await sendCheatSheet(visitor, deps);

    expect(result.recordedAs).toBe('not-recorded');
    expect(sent).toHaveLength(1);
    expect(logged).toEqual(['error: Cheat sheet sent but the send could not be recorded']);
    expect(reported).toEqual(['not recorded']);
  });

  test("claims the client's and the network's slots under their keyed hashes with their hourly limits, and the budget's", async () => {
    const client = inMemoryCounter(10);
    const budget = inMemoryCounter(500);
    const { deps } = dependencies({
      hourlySendCapCounter: client.counter,
      dailySendBudgetCounter: budget.counter,
      clientHourlySendCap: 4,
      networkHourlySendCap: 12,
      dailySendBudget: 40,
    });

    await sendCheatSheet(visitor, deps);

    expect(client.claims).toEqual([
      { subject: 'client#keyed-hash-of-the-network', limit: 4 },
      { subject: 'network#keyed-hash-of-the-wider-network', limit: 12 },
    ]);
    expect(budget.claims).toEqual([{ subject: 'budget', limit: 40 }]);
  });

  test('refuses with the client send cap, sending nothing and touching neither the address cap nor the budget', async () => {
    const quota = inMemoryAddressDailyCap(3);
    const budget = inMemoryCounter(500);
    const { deps, sent } = dependencies({
      hourlySendCapCounter: inMemoryCounter(0).counter,
      addressDailyCapCounter: quota.quota,
      dailySendBudgetCounter: budget.counter,
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({
      kind: 'clientHourlySendCapReached',
      limit: 10,
    });
    expect(sent).toEqual([]);
    expect(quota.claims).toEqual([]);
    expect(budget.claims).toEqual([]);
  });

  test("refuses with the address cap and gives the client's slot back", async () => {
    const client = inMemoryCounter(10);
    const { deps, sent } = dependencies({
      hourlySendCapCounter: client.counter,
      addressDailyCapCounter: inMemoryAddressDailyCap(0).quota,
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({ kind: 'addressDailyCapReached', limit: 3 });
    expect(sent).toEqual([]);
    expect(client.sendsLeft()).toBe(10);
  });

  test('refuses with the spent budget, sending nothing, and gives the client and address slots back', async () => {
    const client = inMemoryCounter(10);
    const quota = inMemoryAddressDailyCap(3);
    const { deps, sent } = dependencies({
      hourlySendCapCounter: client.counter,
      addressDailyCapCounter: quota.quota,
      dailySendBudgetCounter: inMemoryCounter(0).counter,
      dailySendBudget: 500,
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({ kind: 'dailySendBudgetSpent', limit: 500 });
    expect(sent).toEqual([]);
    expect(client.sendsLeft()).toBe(10);
    expect(quota.slotsLeft()).toBe(3);
  });

  test('claims client, network, address, then budget, and gives all four back in reverse when SES fails', async () => {
    const log: string[] = [];
    const client = inMemoryCounter(10, log, 'client');
    const budget = inMemoryCounter(500, log, 'budget');
    const quota = inMemoryAddressDailyCap(3);
    const { deps } = dependencies({
      hourlySendCapCounter: client.counter,
      dailySendBudgetCounter: budget.counter,
      addressDailyCapCounter: {
        takeSlot: async (...args) => (log.push('claim address'), quota.quota.takeSlot(...args)),
        release: async (claim) => (log.push('release address'), quota.quota.release(claim)),
      },
      sendEmail: sesDown,
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({ kind: 'emailServiceUnavailable' });
    // The client's and the network's slots are both in the hourly counter (claimed client first).
    expect(log).toEqual([
      'claim client',
      'claim client',
      'claim address',
      'claim budget',
      'release budget',
      'release address',
      'release client',
      'release client',
    ]);
    expect([client.sendsLeft(), quota.slotsLeft(), budget.sendsLeft()]).toEqual([10, 3, 500]);
  });

  test('gives the earlier slots back when a later claim cannot be made (storage down)', async () => {
    const client = inMemoryCounter(10);
    const { deps, sent } = dependencies({
      hourlySendCapCounter: client.counter,
      dailySendBudgetCounter: {
        prepare: async () => undefined,
        count: async () => Promise.reject(new ProductError('storageUnavailable', 'DynamoDB down')),
        release: async () => undefined,
      },
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({ kind: 'storageUnavailable' });
    expect(sent).toEqual([]);
    expect(client.sendsLeft()).toBe(10);
  });

  test('counts the address cap on the normalized address, and mails the address as typed', async () => {
    const quota = inMemoryAddressDailyCap(3);
    const { deps, sent } = dependencies({ addressDailyCapCounter: quota.quota });

    await sendCheatSheet({ name: 'Ada', email: 'A.Da+book@GoogleMail.com' }, deps);

    expect(quota.claims).toEqual([{ email: 'ada@gmail.com', limit: 3 }]);
    expect(sent.map((email) => email.to)).toEqual(['A.Da+book@GoogleMail.com']);
  });

  test('refuses an address whose domain takes no mail before any slot is claimed', async () => {
    const client = inMemoryCounter(10);
    const domains: string[] = [];
    const { deps, sent } = dependencies({
      hourlySendCapCounter: client.counter,
      checkRecipientDomain: async (domain) => (domains.push(domain), { verdict: 'refuses', reason: 'no-such-domain' }),
    });

    await expect(sendCheatSheet(visitor, deps)).rejects.toMatchObject({ kind: 'undeliverableAddress' });
    expect([domains, client.claims, sent]).toEqual([['example.com'], [], []]);
  });

  test('sends when the domain lookup fails, and reports the unknown answer', async () => {
    const unknown: unknown[] = [];
    const { deps, sent } = dependencies({
      checkRecipientDomain: async () => ({ verdict: 'unknown', reason: 'timeout' }),
      onRecipientDomainUnknown: (result) => unknown.push(result),
    });

    await sendCheatSheet(visitor, deps);

    expect([sent.length, unknown]).toEqual([1, [{ verdict: 'unknown', reason: 'timeout' }]]);
  });

  test('sends through the configured SES configuration set', async () => {
    const { deps, sent } = dependencies({ configurationSetName: 'cheat-sheet-mail' });

    await sendCheatSheet(visitor, deps);

    expect(sent[0]!.configurationSetName).toBe('cheat-sheet-mail');
  });
});
