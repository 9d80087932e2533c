import { existsSync } from 'node:fs';
import {
  integrationTimeoutSeconds,
  productRouteList,
  productRoutes,
  tableActionsOf,
  timeoutLeavesRoomToReply,
} from '../../../../core/api/catalogue/routes';
import { apiRoutes, cheatSheetFormRoute, visitBeaconRoute } from '../../../../core/api/routes';
import { proofOfWorkChallengePath } from '../../../../core/api/proof-of-work';
import { sdkTimeouts, timeNeededBeforeSesMs, worstCaseSdkCallMs } from '../../../../core/config/sdk-timeouts';

describe('the route catalogue', () => {
  test('lists the five published routes, each once', () => {
    expect(productRouteList.map((route) => route.path)).toEqual([
      apiRoutes.saveRequest,
      apiRoutes.sendCheatSheet,
      cheatSheetFormRoute,
      proofOfWorkChallengePath,
      visitBeaconRoute,
    ]);
  });

  test.each(productRouteList.map((route) => [route.name, route] as const))(
    "%s's handler entry exists in the repository",
    (_, route) => {
      expect(existsSync(route.entry)).toBe(true);
    },
  );

  test.each(productRouteList.map((route) => [route.name, route] as const))(
    "%s's timeout outlasts a failing SDK call with room to reply, inside API Gateway's limit",
    (_, route) => {
      expect(timeoutLeavesRoomToReply(route)).toBe(true);
      expect(route.timeoutSeconds).toBeLessThan(integrationTimeoutSeconds);
    },
  );

  test('a timeout of one failing SDK call exactly leaves no room to reply', () => {
    expect(timeoutLeavesRoomToReply({ timeoutSeconds: worstCaseSdkCallMs / 1000 })).toBe(false);
  });

  test('the form route outlasts two failing calls (its save and its send), with room to reply', () => {
    expect(productRoutes.submitForm.timeoutSeconds * 1000).toBeGreaterThanOrEqual(2 * worstCaseSdkCallMs + 2_000);
  });

  test('the send functions outlast one failing call before SES and the time an SES attempt needs left', () => {
    // The guard itself: the SES call, the record of its outcome when DynamoDB stalls, the reply.
    expect(timeNeededBeforeSesMs).toBe(sdkTimeouts.requestTimeoutMs + worstCaseSdkCallMs + 2_000);
    for (const route of [productRoutes.sendCheatSheet, productRoutes.submitForm]) {
      expect(route.timeoutSeconds * 1000).toBeGreaterThanOrEqual(worstCaseSdkCallMs + 1_000 + timeNeededBeforeSesMs);
    }
  });

  test("the form route is granted exactly the save route's table access and the send route's", () => {
    // Each grant once: both routes keep their Idempotency-Key records in the same table.
    const unique = (accesses: readonly object[]) => [...new Set(accesses.map((access) => JSON.stringify(access)))];
    expect(unique(productRoutes.submitForm.tableAccess).sort()).toEqual(
      unique([...productRoutes.saveRequest.tableAccess, ...productRoutes.sendCheatSheet.tableAccess]).sort(),
    );
    expect(productRoutes.submitForm.tableAccess).toHaveLength(unique(productRoutes.submitForm.tableAccess).length);
    expect(productRoutes.submitForm.grants).toEqual(productRoutes.sendCheatSheet.grants);
  });

  test("the save route may only put into the requests table (and read its key's request), keep its limit counters and its keys, and read the origin secret", () => {
    expect(productRoutes.saveRequest.tableAccess.map(({ table, actions }) => ({ table, actions }))).toEqual([
      { table: 'requests', actions: ['dynamodb:PutItem', 'dynamodb:GetItem'] },
      { table: 'limitCounters', actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem'] },
      {
        table: 'idempotency',
        actions: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
      },
    ]);
    expect(productRoutes.saveRequest.grants).toEqual(['originSecretRead']);
  });

  test('the table operations the alarms sum are those the functions are granted', () => {
    // The routes' own and the hand-off's (its GetItem), and the unsent check's and the digest's Scan.
    expect(tableActionsOf('requests')).toEqual([
      'dynamodb:PutItem',
      'dynamodb:GetItem',
      'dynamodb:UpdateItem',
      'dynamodb:Query',
      'dynamodb:Scan',
    ]);
    expect(tableActionsOf('limitCounters')).toEqual([
      'dynamodb:GetItem',
      'dynamodb:UpdateItem',
      'dynamodb:BatchGetItem',
    ]);
    expect(tableActionsOf('idempotency')).toEqual([
      'dynamodb:PutItem',
      'dynamodb:GetItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    ]);
    expect(tableActionsOf('funnelVisitors')).toEqual(['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:DeleteItem']);
  });

  test("the visit beacon keeps the day's salt and marks in the funnel visitors' table, and only adds to the day's counts in the counters' table", () => {
    expect(productRoutes.countVisit.tableAccess.map(({ table, actions }) => ({ table, actions }))).toEqual([
      { table: 'funnelVisitors', actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'] },
      { table: 'limitCounters', actions: ['dynamodb:UpdateItem'] },
    ]);
  });
});
