import { site } from '../../core/content/site';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Fills index.html's title and description slots (the page's and its Open Graph tags'). */
export function withSiteMetadata(html: string, title: string = site.title): string {
  return html
    .replace(/<title>.*?<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replaceAll('<!--app-title-->', escapeHtml(title))
    .replaceAll('<!--app-description-->', escapeHtml(site.description));
}
