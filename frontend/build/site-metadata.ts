import { site } from '../../core/content/site';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface PageMetadata {
  readonly title: string;
  /** False adds `noindex`: the not-found and result pages are not content to list. */
  readonly indexable: boolean;
}

/** What src/entry-server.tsx's `render` gives for a path. */
export interface RenderedPage extends PageMetadata {
  readonly html: string;
}

/** Fills index.html's title and description slots (the page's and its Open Graph tags'). */
export function withSiteMetadata(
  html: string,
  { title, indexable }: PageMetadata = { title: site.title, indexable: true },
): string {
  const filled = html
    .replace(/<title>.*?<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replaceAll('<!--app-title-->', escapeHtml(title))
    .replaceAll('<!--app-description-->', escapeHtml(site.description));
  return indexable ? filled : filled.replace('</head>', '  <meta name="robots" content="noindex" />\n  </head>');
}
