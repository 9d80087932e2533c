import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import type { RenderedPage } from './build/site-metadata';
import { buildOutput } from '../core/build-output';
import { ContentFileError } from '../core/content/content-file';
import { isMailProvider, mailProviders } from '../core/data/mail-provider';
import { contentDirectory, writeContentModules } from './build/content-modules';

/**
 * The dev server renders each page as the build's pre-render does (build/prerender.ts): the
 * page's HTML, title and description, so the island hydrates in dev exactly as in production.
 */
function devPrerender(): Plugin {
  return {
    name: 'dev-prerender',
    apply: 'serve',
    async transformIndexHtml(html, context) {
      const server = context.server!;
      const { withSiteMetadata } = (await server.ssrLoadModule(
        '/build/site-metadata.ts',
      )) as typeof import('./build/site-metadata');
      const { render } = (await server.ssrLoadModule('/src/entry-server.tsx')) as {
        render: (path: string) => RenderedPage;
      };
      const page = render(new URL(context.originalUrl ?? context.path, 'http://localhost').pathname);
      return withSiteMetadata(html.replace('<!--app-html-->', page.html), page);
    },
  };
}

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The dev server rebuilds core/content/generated/ whenever a file of content/ changes, so an
 * edit shows on the next reload; a mistake in it is printed with its file, line and field.
 */
function contentFiles(): Plugin {
  return {
    name: 'content-files',
    apply: 'serve',
    configureServer(server) {
      const directory = path.join(repositoryRoot, contentDirectory);
      server.watcher.add(directory);
      server.watcher.on('change', (file) => {
        if (!file.startsWith(directory)) return;
        writeContentModules(repositoryRoot).catch((error: unknown) => {
          if (!(error instanceof ContentFileError)) throw error;
          server.config.logger.error(error.message);
        });
      });
    },
  };
}

/**
 * `MAIL_PROVIDER` at build time: the stage's `mailProvider` (the deploy workflow passes it), so
 * the privacy page and the note under the form name the provider the leads go to. A value that is
 * no provider stops the build.
 */
function mailProviderOfBuild(): string {
  const value = process.env.MAIL_PROVIDER?.trim().toLowerCase() ?? '';
  if (value !== '' && !isMailProvider(value)) {
    throw new Error(`MAIL_PROVIDER "${value}" is none of ${mailProviders.join(', ')} (or leave it unset).`);
  }
  return value;
}

export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  define: { __MAIL_PROVIDER__: JSON.stringify(mailProviderOfBuild()) },
  plugins: [react(), devPrerender(), contentFiles()],
  build: {
    // The client build is the site; the server build only feeds the pre-render step.
    outDir: path.join(repositoryRoot, isSsrBuild ? buildOutput.prerenderDirectory : buildOutput.siteDirectory),
    emptyOutDir: true,
    target: 'es2022',
    // The page loads one small script up front; the island's code is fetched when needed
    // (src/islands/island-loader.ts). Browsers without modulepreload (all current ones have it)
    // simply fetch it without the hint: no polyfill in the loader.
    modulePreload: { polyfill: false },
  },
  server: { port: 5173, strictPort: false },
}));
