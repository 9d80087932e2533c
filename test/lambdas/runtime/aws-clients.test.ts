/**
 * The SDK clients are created once per container (one module registry, as one Lambda container
 * has) and reused by every invocation. The client classes are wrapped, not replaced: the
 * handlers still talk to the emulators through the real clients.
 */

import { sdkTimeouts } from '../../../core/config/sdk-timeouts';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, saveRoute, sendRoute } from '../support/http-api-events';
import { documented } from '../support/documented-handler';

type Client = { send: (...args: unknown[]) => Promise<unknown>; config: { maxAttempts: () => Promise<number> } };

let emulators: HandlerStack;
beforeAll(async () => {
  emulators = await startHandlerStack();
});
afterAll(() => emulators?.stop());

const clientModules = {
  dynamodb: ['@aws-sdk/client-dynamodb', 'DynamoDBClient'],
  s3: ['@aws-sdk/client-s3', 'S3Client'],
  ses: ['@aws-sdk/client-sesv2', 'SESv2Client'],
} as const;

/** In a fresh module registry (a new container): every client the modules construct, by kind. */
async function inFreshContainer(use: (created: Record<keyof typeof clientModules, Client[]>) => Promise<void>) {
  const created: Record<keyof typeof clientModules, Client[]> = { dynamodb: [], s3: [], ses: [] };
  await jest.isolateModulesAsync(async () => {
    for (const [kind, [moduleName, className]] of Object.entries(clientModules) as Array<
      [keyof typeof clientModules, readonly [string, string]]
    >) {
      jest.doMock(moduleName, () => {
        const actual = jest.requireActual(moduleName) as Record<string, new (...args: unknown[]) => Client>;
        const Real = actual[className]!;
        class Counted extends Real {
          constructor(...args: unknown[]) {
            super(...args);
            created[kind].push(this);
          }
        }
        return { ...actual, [className]: Counted };
      });
    }
    try {
      await use(created);
    } finally {
      for (const [moduleName] of Object.values(clientModules)) jest.dontMock(moduleName);
    }
  });
}

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.clients.${visitorNumber}@example.com` });

describe('the SDK clients', () => {
  test('are created once per container and used by every invocation of both handlers', async () => {
    await inFreshContainer(async (created) => {
      const save = documented((await import('../../../lambdas/save-request/handler')).handler);
      const send = documented((await import('../../../lambdas/send-cheat-sheet/handler')).handler);
      const clients = await import('../../../lambdas/runtime/aws-clients');
      expect([created.dynamodb.length, created.s3.length, created.ses.length]).toEqual([1, 1, 1]);
      const s3Send = jest.spyOn(created.s3[0]!, 'send');
      const sesSend = jest.spyOn(created.ses[0]!, 'send');

      for (let invocation = 0; invocation < 2; invocation += 1) {
        const visitor = newVisitor();
        expect((await save(postEvent(saveRoute, visitor))).statusCode).toBe(201);
        expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(200);
      }

      expect([created.dynamodb.length, created.s3.length, created.ses.length]).toEqual([1, 1, 1]);
      // The document client the handlers use wraps the one DynamoDB client, sharing its config.
      expect(clients.dynamoDb.config).toBe((created.dynamodb[0] as unknown as { config: unknown }).config);
      expect(clients.s3).toBe(created.s3[0]);
      expect(clients.ses).toBe(created.ses[0]);
      // Two SendEmail and one GetAccount: the account's rate, read once per container (send-pace.ts).
      expect(sesSend.mock.calls.map(([command]) => (command as object).constructor.name)).toEqual([
        'GetAccountCommand',
        'SendEmailCommand',
        'SendEmailCommand',
      ]);
      expect(s3Send).toHaveBeenCalledTimes(1); // the PDF, read once and reused
    });
  });

  test('make at most the configured number of attempts per call', async () => {
    await inFreshContainer(async (created) => {
      await import('../../../lambdas/runtime/aws-clients');

      expect([created.dynamodb.length, created.s3.length, created.ses.length]).toEqual([1, 1, 1]);
      for (const client of [...created.dynamodb, ...created.s3]) {
        expect(await client.config.maxAttempts()).toBe(sdkTimeouts.maxAttempts);
      }
      // SendEmail is not idempotent: the SDK never retries it (email-sender.ts retries what proves nothing was sent).
      for (const client of created.ses) expect(await client.config.maxAttempts()).toBe(1);
    });
  });
});
