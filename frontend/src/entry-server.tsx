import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { privacy } from '../../core/content/privacy';
import { notFound, site } from '../../core/content/site';
import { App, isLandingPath, isPrivacyPath } from './app';

export interface RenderedPage {
  readonly html: string;
  /** The document's title. */
  readonly title: string;
  /** Whether search engines should list the page: the not-found page is not content. */
  readonly indexable: boolean;
}

function titleOf(path: string): string {
  if (isLandingPath(path)) return site.title;
  return `${isPrivacyPath(path) ? privacy.heading : notFound.message} · ${site.title}`;
}

/** Renders a page to HTML at build time (build/prerender.ts); the client hydrates it (src/main.tsx). */
export function render(path: string): RenderedPage {
  return {
    html: renderToString(
      <StrictMode>
        <App path={path} />
      </StrictMode>,
    ),
    title: titleOf(path),
    indexable: isLandingPath(path) || isPrivacyPath(path),
  };
}
