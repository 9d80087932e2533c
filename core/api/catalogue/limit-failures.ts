/**
 * The failure kinds of the limits: the caps (429, the visitor's side asked too often) and the daily
 * send budget and a paused sending (503, the product cannot send for now). Part of the failure
 * catalogue (`failures.ts`); the words are in docs/architecture.md, 'Words used here'.
 */

import {
  defaultAddressDailyCap,
  defaultClientHourlySaveCap,
  defaultClientHourlySendCap,
  defaultDailySendBudget,
  defaultNetworkHourlySaveCap,
  defaultNetworkHourlySendCap,
} from '../../config/function-environment';
import {
  addressDailyCapReachedMessage,
  clientHourlySaveCapReachedMessage,
  clientHourlySendCapReachedMessage,
  dailySendBudgetSpentMessage,
  networkHourlySaveCapReachedMessage,
  networkHourlySendCapReachedMessage,
} from '../messages';
import { fixed, type FailureKindSpec } from './failure-kind';

export const limitFailures = {
  addressDailyCapReached: {
    code: 'address_daily_cap_reached',
    status: 429,
    publicMessage: ({ limit }) => addressDailyCapReachedMessage(limit ?? 0),
    exampleLimit: defaultAddressDailyCap,
    metric: { refusal: 'AddressCapReached' },
    runbook: '#address-daily-cap',
    causes: {
      sendCheatSheet: [
        { when: 'The address received the cheat sheet as often as the cap allows in the last 24 hours.' },
      ],
    },
  },
  clientHourlySendCapReached: {
    code: 'client_hourly_cap_reached',
    status: 429,
    publicMessage: ({ limit }) => clientHourlySendCapReachedMessage(limit ?? 0),
    exampleLimit: defaultClientHourlySendCap,
    metric: { refusal: 'ClientCapReached' },
    runbook: '#client-hourly-cap',
    causes: {
      sendCheatSheet: [
        {
          when: 'The client (one IPv4 address, or one IPv6 /64) was sent as many cheat sheets as its limit allows in the last hour, to whatever addresses.',
        },
      ],
    },
  },
  networkHourlySendCapReached: {
    code: 'network_hourly_cap_reached',
    status: 429,
    publicMessage: ({ limit }) => networkHourlySendCapReachedMessage(limit ?? 0),
    exampleLimit: defaultNetworkHourlySendCap,
    metric: { refusal: 'NetworkCapReached' },
    runbook: '#network-hourly-cap',
    causes: {
      sendCheatSheet: [
        {
          when: 'The network (one IPv4 /24, or one IPv6 /48) was sent as many cheat sheets as its limit allows in the last hour, whatever its clients.',
        },
      ],
    },
  },
  clientHourlySaveCapReached: {
    code: 'client_hourly_save_cap_reached',
    status: 429,
    publicMessage: ({ limit }) => clientHourlySaveCapReachedMessage(limit ?? 0),
    exampleLimit: defaultClientHourlySaveCap,
    metric: { refusal: 'ClientCapReached' },
    runbook: '#save-limits',
    causes: {
      saveRequest: [
        {
          when: 'The client (one IPv4 address, or one IPv6 /64) saved as many requests as its limit allows in the last hour.',
        },
      ],
    },
  },
  networkHourlySaveCapReached: {
    code: 'network_hourly_save_cap_reached',
    status: 429,
    publicMessage: ({ limit }) => networkHourlySaveCapReachedMessage(limit ?? 0),
    exampleLimit: defaultNetworkHourlySaveCap,
    metric: { refusal: 'NetworkCapReached' },
    runbook: '#save-limits',
    causes: {
      saveRequest: [
        {
          when: 'The network (one IPv4 /24, or one IPv6 /48) saved as many requests as its limit allows in the last hour.',
        },
      ],
    },
  },
  // The product's own budget, not the visitor's doing: the service cannot send for now.
  dailySendBudgetSpent: {
    code: 'daily_send_budget_spent',
    status: 503,
    publicMessage: fixed(dailySendBudgetSpentMessage),
    metric: { refusal: 'SendBudgetRefused' },
    runbook: '#daily-send-budget',
    causes: {
      sendCheatSheet: [
        {
          when: `The product sent its daily send budget (the stack's \`dailySendBudget\`, ${defaultDailySendBudget} by default) in the last 24 hours. A request saved first stays saved.`,
        },
      ],
    },
  },
  // The configuration set (paused by the bounce or complaint alarm) or the whole account (by SES).
  sendingPaused: {
    code: 'sending_paused',
    status: 503,
    publicMessage: fixed(dailySendBudgetSpentMessage),
    metric: { refusal: 'SendingPaused' },
    runbook: '#sending-paused',
    causes: {
      sendCheatSheet: [
        {
          when: "SES sending is paused, for the product's configuration set (after a bounce or complaint alarm) or for the whole account. Every slot claimed is given back.",
        },
      ],
    },
  },
} as const satisfies Record<string, FailureKindSpec>;
