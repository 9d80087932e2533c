import { ProductError } from '../../../lambdas/runtime/errors';
import { describeErrorForLog, emailDomainOf } from '../../../lambdas/runtime/logger';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, saveRoute, sendRoute } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

describe('log redaction', () => {
  test('an address is logged as its domain only', () => {
    expect(emailDomainOf('ada.owner@example.com')).toBe('example.com');
  });

  test('an error is described by name, failure kind, cause and status, with addresses masked', () => {
    const cause = Object.assign(new Error('Identity ada@example.com failed the check'), {
      name: 'MessageRejected',
      $metadata: { httpStatusCode: 400 },
    });

    expect(
      describeErrorForLog(new ProductError('storageUnavailable', 'write for ada@example.com failed', { cause })),
    ).toEqual({
      errorName: 'ProductError',
      failureKind: 'storageUnavailable',
      errorMessage: 'write for [email] failed',
      causeName: 'MessageRejected',
      causeMessage: 'Identity [email] failed the check',
      causeHttpStatus: 400,
    });
  });
});

describe("the handlers' logs at INFO level", () => {
  let emulators: HandlerStack;
  beforeAll(async () => {
    emulators = await startHandlerStack({ emailFaultInjection: true });
  });
  afterAll(() => emulators?.stop());

  /** Runs fresh copies of both handlers with the logger at INFO, returning what they wrote. */
  async function logsOf(run: (handlers: { save: Handler; send: Handler }) => Promise<void>): Promise<string> {
    const written: string[] = [];
    const capture = (stream: NodeJS.WriteStream) =>
      jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
        return true;
      });
    const levelBefore = process.env.POWERTOOLS_LOG_LEVEL;
    process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
    const spies = [capture(process.stdout), capture(process.stderr)];
    try {
      await jest.isolateModulesAsync(async () => {
        const save = documented((await import('../../../lambdas/save-request/handler')).handler);
        const send = documented((await import('../../../lambdas/send-cheat-sheet/handler')).handler);
        await run({ save, send });
      });
    } finally {
      for (const spy of spies) spy.mockRestore();
      process.env.POWERTOOLS_LOG_LEVEL = levelBefore;
    }
    return written.join('');
  }

  test("hold neither the visitor's name nor their address, on success or failure", async () => {
    const visitor = { name: 'Zelda Quixote-Marlowe', email: 'zelda.quixote@example.org' };

    const logs = await logsOf(async ({ save, send }) => {
      expect((await save(postEvent(saveRoute, visitor))).statusCode).toBe(201);
      expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(200);
      emulators.stack.setEmailFault('unverified-sender');
      expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(502);
      emulators.stack.setEmailFault(null);
      expect(
        (await send(postEvent(sendRoute, { ...visitor, name: `${visitor.name} ${visitor.email}` }))).statusCode,
      ).toBe(400);
    });

    // The capture works: each outcome left its structured line.
    for (const message of ['Cheat-sheet request saved', 'Cheat sheet sent', 'Cheat sheet not sent']) {
      expect(logs).toContain(message);
    }
    expect(logs).toContain('"emailDomain":"example.org"');
    expect(logs).not.toContain('Zelda');
    expect(logs).not.toContain('Quixote');
    expect(logs).not.toContain(visitor.email);
    expect(logs).not.toContain('zelda.quixote');
  });
});
