/**
 * What in content/ still stands in for the author's real material: each item the files mark
 * `placeholder: true`, named in words. A production build prints them (frontend/build/prerender.ts)
 * and `npm run preflight` warns of them; docs/author.md says how to replace each.
 */

import * as authorContent from './generated/author';
import * as bookContent from './generated/book';
import * as privacyContent from './generated/privacy';
import * as resourcesContent from './generated/resources';
import * as siteContent from './generated/site';
import * as testimonialContent from './generated/testimonial';

interface Marked {
  readonly placeholder?: true | undefined;
}

export interface ContentSnapshot {
  readonly site: Marked;
  readonly book: { readonly amazon: Marked; readonly cover: Marked };
  readonly author: Marked & {
    readonly photo?: Marked | undefined;
    readonly social: readonly (Marked & { readonly network: string })[];
  };
  readonly resources: { readonly podcast: Marked };
  readonly testimonial: Marked;
  readonly privacy: Marked;
}

const current: ContentSnapshot = {
  site: siteContent,
  book: bookContent,
  author: authorContent,
  resources: resourcesContent,
  testimonial: testimonialContent,
  privacy: privacyContent,
};

/** Each placeholder left, in the order of the page, named as the author would say it. */
export function placeholdersIn(content: ContentSnapshot = current): string[] {
  const left: [string, Marked | undefined][] = [
    ['the Amazon link', content.book.amazon],
    ['the book cover', content.book.cover],
    ["the author's name and biography", content.author],
    ['the author photo', content.author.photo],
    ...content.author.social.map((link): [string, Marked] => [`the ${link.network} profile link`, link]),
    ['the testimonial', content.testimonial],
    ['the podcast link', content.resources.podcast],
    ['the privacy contact address', content.privacy],
    ["the site's address", content.site],
  ];
  return left.filter(([, marked]) => marked?.placeholder === true).map(([name]) => name);
}

/** One line naming every placeholder left, or null when there is none. */
export function placeholderWarning(placeholders: readonly string[]): string | null {
  if (placeholders.length === 0) return null;
  return `Placeholders still in content/ (docs/author.md, 'Before launch: your own material'): ${placeholders.join(', ')}.`;
}
