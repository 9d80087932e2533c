import { renderToString } from 'react-dom/server';
import { formResults } from '../../core/content/form-results';
import { privacy } from '../../core/content/privacy';
import { notFound, site } from '../../core/content/site';
import { formOutcomeAt } from '../../core/site-pages';
import { App, isLandingPath, isPrivacyPath } from './app';

export interface RenderedPage {
  readonly html: string;
  /** The document's title. */
  readonly title: string;
  /** Whether search engines should list the page: the landing and privacy pages are content. */
  readonly indexable: boolean;
}

function titleOf(path: string): string {
  if (isLandingPath(path)) return site.title;
  if (isPrivacyPath(path)) return `${privacy.heading} · ${site.title}`;
  const outcome = formOutcomeAt(path);
  return `${outcome ? formResults[outcome].message.title : notFound.message} · ${site.title}`;
}

/**
 * Renders a page to HTML at build time (build/prerender.ts) and for the dev server. The browser
 * hydrates none of it but the form's island (src/islands/).
 */
export function render(path: string): RenderedPage {
  return {
    html: renderToString(<App path={path} />),
    title: titleOf(path),
    indexable: isLandingPath(path) || isPrivacyPath(path),
  };
}
