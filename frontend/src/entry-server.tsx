import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app';

/** Renders a page to HTML at build time; the client hydrates it (src/main.tsx). */
export function render(path: string): string {
  return renderToString(
    <StrictMode>
      <App path={path} />
    </StrictMode>,
  );
}
