/** A fresh container's handler: its module (and so its SDK clients) loaded anew, with some environment variables changed while it loads and runs. */

import type { Handler } from './documented-handler';

export async function withFreshHandler<T, H = Handler>(
  modulePath: string,
  env: Record<string, string | undefined>,
  use: (handler: H) => Promise<T>,
  wrap: (handler: H) => H = (handler) => handler,
): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete process.env[name];
  try {
    let result: T | undefined;
    await jest.isolateModulesAsync(async () => {
      const { handler } = (await import(modulePath)) as { handler: H };
      result = await use(wrap(handler));
    });
    return result as T;
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
