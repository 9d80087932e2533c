import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { buildOutput } from '../core/build-output';

/**
 * sonner injects its stylesheet through a runtime <style> element, which the site's
 * Content-Security-Policy (style-src 'self') blocks. We drop that call and ship the same
 * stylesheet as a normal CSS file instead (imported in src/main.tsx).
 */
function sonnerStylesAsFile(): Plugin {
  return {
    name: 'sonner-styles-as-file',
    transform(code, id) {
      if (!/[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
      const withoutInjection = code.replace(/__insertCSS\("(?:[^"\\]|\\.)*"\)/, 'void 0');
      if (withoutInjection === code) this.error('sonner no longer calls __insertCSS: revisit this plugin');
      return { code: withoutInjection, map: null };
    },
  };
}

/**
 * The dev server fills the page's title and description from the content modules; the build's
 * pre-render (build/prerender.ts) does the same for the real pages.
 */
function devSiteMetadata(): Plugin {
  return {
    name: 'dev-site-metadata',
    apply: 'serve',
    async transformIndexHtml(html, context) {
      const { withSiteMetadata } = (await context.server!.ssrLoadModule(
        '/build/site-metadata.ts',
      )) as typeof import('./build/site-metadata');
      return withSiteMetadata(html);
    },
  };
}

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), sonnerStylesAsFile(), devSiteMetadata()],
  build: {
    // The client build is the site; the server build only feeds the pre-render step.
    outDir: path.join(repositoryRoot, isSsrBuild ? buildOutput.prerenderDirectory : buildOutput.siteDirectory),
    emptyOutDir: true,
    target: 'es2022',
  },
  server: { port: 5173, strictPort: false },
}));
