/**
 * `npm run dev`: the same emulators and API as `npm start`, with Vite's dev server (hot reload)
 * in front. The API listens on a free port of its own and Vite proxies `/api` to it; PORT is
 * Vite's port.
 *
 * The signal handlers come first: everything else is imported after them, so a signal while
 * the product's modules load still exits 0 (local/shutdown.ts).
 */

import { stopOnSignals } from './shutdown';

const shutdown = stopOnSignals();
console.error('Starting the local product with Vite (Ctrl-C stops it)…');

const { createServer } = await import('vite');
const { LocalStackPortInUseError, startLocalStack } = await import('./local-stack');
const { endpointLines, InvalidPortError, portVariables, readPorts } = await import('./ports');

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

const stack = await shutdown
  .start(
    () => startLocalStack({ ports: { ...ports, site: 0 }, siteDir: null }),
    (started) => started.stop(),
  )
  .catch((error: unknown) => {
    if (error instanceof LocalStackPortInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  });

const vite = await shutdown
  .start(
    async () => {
      const server = await createServer({
        configFile: 'frontend/vite.config.ts',
        server: {
          host: '127.0.0.1',
          port: ports.site,
          strictPort: true,
          proxy: { '/api': { target: `http://127.0.0.1:${stack.ports.site}` } },
        },
      });
      try {
        await server.listen();
      } catch (error) {
        await server.close();
        throw error;
      }
      return server;
    },
    (started) => started.close(),
  )
  .catch(async (error: unknown) => {
    await stack.stop();
    if (error instanceof Error && /already in use/i.test(error.message)) {
      console.error(
        `Port ${ports.site} is already in use, so Vite's dev server cannot start. ` +
          `Set ${portVariables.site} to a free port, or to 0 to pick one (e.g. ${portVariables.site}=0 npm run dev).`,
      );
      process.exit(1);
    }
    throw error;
  });

const address = vite.httpServer?.address();
const vitePort = typeof address === 'object' && address ? address.port : ports.site;
for (const line of endpointLines({ ...stack.ports, site: vitePort })) console.log(line);
