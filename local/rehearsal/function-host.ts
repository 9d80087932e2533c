/**
 * One function of the cloud assembly, running from its own bundle in a process of its own, as
 * Lambda runs it: only the template's variables and Lambda's own, the handler the template names,
 * invoked with an event and a context whose remaining time is the template's timeout. The process
 * stays up between invocations, as a warm container does; `stop` ends it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface HostedFunction {
  readonly name: string;
  readonly bundleDirectory: string;
  /** `index.handler`. */
  readonly handler: string;
  readonly timeoutSeconds: number;
  /** The template's variables and the SDK's (region, credentials, endpoint). */
  readonly environment: Readonly<Record<string, string>>;
}

export interface FunctionHost {
  invoke(event: unknown): Promise<unknown>;
  /** Ends the process and waits for it to exit. */
  stop(): Promise<void>;
}

/** Imports the bundle, then answers each message `{ id, event }` with `{ id, reply }` or `{ id, error }`. */
const hostScript = `
const { REHEARSAL_MODULE, REHEARSAL_EXPORT, REHEARSAL_TIMEOUT_MS, REHEARSAL_FUNCTION_ARN } = process.env;
const handler = (await import(REHEARSAL_MODULE))[REHEARSAL_EXPORT];
process.on('message', async ({ id, event }) => {
  const deadline = Date.now() + Number(REHEARSAL_TIMEOUT_MS);
  const context = {
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME, functionVersion: '$LATEST', memoryLimitInMB: '256',
    invokedFunctionArn: REHEARSAL_FUNCTION_ARN, awsRequestId: crypto.randomUUID(),
    logGroupName: 'rehearsal', logStreamName: 'rehearsal', callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => deadline - Date.now(),
  };
  try {
    process.send({ id, reply: (await handler(event, context)) ?? null });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.send({ ready: true });
`;

/** Starts the function's process; resolves once its bundle is imported (Lambda's init phase). */
export function hostFunction(fn: HostedFunction, functionArn: string): Promise<FunctionHost> {
  const [file, exportName] = fn.handler.split('.');
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', hostScript], {
    env: {
      PATH: process.env.PATH,
      ...fn.environment,
      AWS_LAMBDA_FUNCTION_NAME: fn.name,
      REHEARSAL_MODULE: pathToFileURL(path.join(fn.bundleDirectory, `${file}.mjs`)).href,
      REHEARSAL_EXPORT: exportName,
      REHEARSAL_TIMEOUT_MS: String(fn.timeoutSeconds * 1000),
      REHEARSAL_FUNCTION_ARN: functionArn,
    },
    // The functions' logs (stdout) are not the rehearsal's output; their errors are kept.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const pending = new Map<number, { resolve: (reply: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      const error = new Error(`${fn.name} exited with ${code}: ${stderr}`);
      reject(error);
      for (const { reject: rejectCall } of pending.values()) rejectCall(error);
    });
    child.on('message', (message: { ready?: true; id?: number; reply?: unknown; error?: string }) => {
      if (message.ready) {
        resolve({
          invoke(event) {
            const id = nextId++;
            return new Promise((resolveCall, rejectCall) => {
              pending.set(id, { resolve: resolveCall, reject: rejectCall });
              child.send({ id, event });
            });
          },
          stop() {
            child.removeAllListeners('exit');
            return new Promise((resolveStop) => {
              child.once('exit', () => resolveStop());
              child.kill();
            });
          },
        });
        return;
      }
      const call = pending.get(message.id!);
      pending.delete(message.id!);
      if (message.error !== undefined) call?.reject(new Error(`${fn.name} failed: ${message.error}`));
      else call?.resolve(message.reply);
    });
  });
}
