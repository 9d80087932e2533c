/**
 * `npm run dev`: the same emulators and API as `npm start`, with Vite's dev server (hot reload)
 * in front. The API listens on a free port of its own and Vite proxies `/api` to it; PORT is
 * Vite's port.
 */

import { createServer, type ViteDevServer } from 'vite';
import { LocalStackPortInUseError, startLocalStack, type LocalStack } from './local-stack';
import { endpointLines, InvalidPortError, portVariables, readPorts } from './ports';
import { stopOnSignals } from './shutdown';

const shutdown = stopOnSignals();

let stack: LocalStack;
let vite: ViteDevServer;
const ports = (() => {
  try {
    return readPorts();
  } catch (error) {
    if (error instanceof InvalidPortError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
})();

try {
  stack = await startLocalStack({ ports: { ...ports, site: 0 }, siteDir: null });
} catch (error) {
  if (error instanceof LocalStackPortInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
shutdown.onStop(() => stack.stop());

try {
  vite = await createServer({
    configFile: 'frontend/vite.config.ts',
    server: {
      host: '127.0.0.1',
      port: ports.site,
      strictPort: true,
      proxy: { '/api': { target: `http://127.0.0.1:${stack.ports.site}` } },
    },
  });
  await vite.listen();
} catch (error) {
  await stack.stop();
  if (error instanceof Error && /already in use/i.test(error.message)) {
    console.error(
      `Port ${ports.site} is already in use, so Vite's dev server cannot start. ` +
        `Set ${portVariables.site} to a free port, or to 0 to pick one (e.g. ${portVariables.site}=0 npm run dev).`,
    );
    process.exit(1);
  }
  throw error;
}
shutdown.onStop(() => vite.close());

const address = vite.httpServer?.address();
const vitePort = typeof address === 'object' && address ? address.port : ports.site;
for (const line of endpointLines({ ...stack.ports, site: vitePort })) console.log(line);
