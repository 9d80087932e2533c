/**
 * What in content/ still stands in for the author's real material: each item the files mark
 * `placeholder: true`, named in words and found at its file and line. A production build fails on
 * them and a staging build warns (frontend/build/prerender.ts), `npm run preflight` fails on them
 * for production and warns for another stage (ops/preflight/content-check.ts), and docs/author.md
 * lists them from `placeholderGuide` (test/repository/author-placeholders.test.ts keeps it so).
 */

import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
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

/**
 * One stand-in the sample content ships with: what the author calls it, the file, where its
 * `placeholder: true` sits (the YAML path of the map holding it; `*` for every entry of a list),
 * the fields to replace and with what. docs/author.md's list is these, in this order.
 */
export interface PlaceholderGuideEntry {
  readonly name: string;
  /** content/<file> */
  readonly file: string;
  readonly at: readonly string[];
  /** The fields to replace, as docs/author.md names them. */
  readonly fields: string;
  readonly replaceWith: string;
}

export const placeholderGuide: readonly PlaceholderGuideEntry[] = [
  {
    name: 'the Amazon link',
    file: 'book.yaml',
    at: ['amazon'],
    fields: '`amazon.url`',
    replaceWith: "the book's own Amazon page (`https://www.amazon.com/dp/…`)",
  },
  {
    name: 'the book cover',
    file: 'book.yaml',
    at: ['cover'],
    fields: '`cover`',
    replaceWith: 'the cover in `frontend/public/images/` (2:3), its `src`, `width` and `height` in pixels',
  },
  {
    name: "the author's name and biography",
    file: 'author.yaml',
    at: [],
    fields: '`name`, `bio`',
    replaceWith: 'your name and a few sentences about you',
  },
  {
    name: 'the author photo',
    file: 'author.yaml',
    at: ['photo'],
    fields: '`photo`',
    replaceWith: 'a square photo in `frontend/public/images/` and who it shows (`alt`); no `photo`: your initials',
  },
  {
    name: 'the Facebook, Instagram, LinkedIn profile link',
    file: 'author.yaml',
    at: ['social', '*'],
    fields: '`social`',
    replaceWith: 'your profile pages, in that order',
  },
  {
    name: 'the testimonial',
    file: 'testimonial.yaml',
    at: [],
    fields: '`text`, `author`',
    replaceWith: "a real reader's words and name, with their permission",
  },
  {
    name: 'the podcast link',
    file: 'resources.yaml',
    at: ['podcast'],
    fields: '`podcast.url`',
    replaceWith: "the podcast's own page (and its `logo`)",
  },
  {
    name: 'the privacy contact address',
    file: 'privacy.yaml',
    at: [],
    fields: '`contactEmail`',
    replaceWith: 'a mailbox you read',
  },
  {
    name: "the site's address",
    file: 'site.yaml',
    at: [],
    fields: '`address`',
    replaceWith: "the site's own public address (`https://…`), which every cheat-sheet e-mail links to",
  },
];

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

/** A placeholder left: what it is and the line of its `placeholder: true`. */
export interface PlaceholderSpot {
  readonly name: string;
  /** content/<file> */
  readonly file: string;
  /** 1-based: the line of `placeholder: true`, the line to delete once the item is real. */
  readonly line: number;
}

/**
 * Every `placeholder: true` left in the content files' text (`sources`, by file name as
 * `book.yaml`), in the guide's order, with its file and line. Pure: the callers read the files.
 */
export function locatePlaceholders(sources: Readonly<Record<string, string>>): PlaceholderSpot[] {
  const spots: PlaceholderSpot[] = [];
  for (const entry of placeholderGuide) {
    const source = sources[entry.file];
    if (source === undefined) continue;
    const lines = new LineCounter();
    const document = parseDocument(source, { lineCounter: lines });
    for (const { node, label } of mapsAt(document.contents, entry.at)) {
      if (!isMap(node)) continue;
      const marker = node.items.find((pair) => isScalar(pair.key) && pair.key.value === 'placeholder');
      if (!marker || !isScalar(marker.value) || marker.value.value !== true || !isScalar(marker.key)) continue;
      const offset = marker.key.range?.[0] ?? 0;
      spots.push({
        name: label === undefined ? entry.name : `the ${label} profile link`,
        file: `content/${entry.file}`,
        line: lines.linePos(offset).line,
      });
    }
  }
  return spots;
}

/** The nodes at `path` (`*`: each entry of a list, labelled by its `network`). */
interface Found {
  readonly node: unknown;
  readonly label?: string;
}

function mapsAt(root: unknown, path: readonly string[]): Found[] {
  let nodes: Found[] = [{ node: root }];
  for (const key of path) {
    nodes = nodes.flatMap(({ node }): Found[] => {
      if (key === '*') {
        if (!isSeq(node)) return [];
        return node.items.map((item) => {
          const network = isMap(item) ? item.get('network') : undefined;
          return { node: item, label: typeof network === 'string' ? network : 'social' };
        });
      }
      return isMap(node) ? [{ node: node.get(key, true) }] : [];
    });
  }
  return nodes;
}

/** The files that can hold a placeholder, as `locatePlaceholders` takes them. */
export const placeholderFiles = [...new Set(placeholderGuide.map((entry) => entry.file))];

/** `content/book.yaml:16: the Amazon link`: one per line. */
export const describeSpot = (spot: PlaceholderSpot) => `${spot.file}:${spot.line}: ${spot.name}`;

/** What a build or preflight of a stage does with placeholders left. */
export type PlaceholderPolicy = 'fail' | 'warn';

/** The stage that keeps the stage-less stack names (infra/stacks.ts) and is the live site. */
export const liveStage = 'production';

/**
 * Production (named, or no stage at all: the stage-less stack is production's) fails; any other
 * stage (staging) only warns: it is where the author sees the site before the real material is in.
 */
export const placeholderPolicyFor = (stage: string | undefined): PlaceholderPolicy =>
  stage === undefined || stage === liveStage ? 'fail' : 'warn';

/** The message naming every placeholder left with its file and line, or null when there is none. */
export function placeholderReport(spots: readonly PlaceholderSpot[], policy: PlaceholderPolicy): string | null {
  if (spots.length === 0) return null;
  const lead =
    policy === 'fail'
      ? 'Placeholders still in content/: the live site cannot go out with stand-ins. Replace each, then delete its `placeholder: true` line'
      : 'Placeholders still in content/ (fine on staging; production refuses them). Replace each, then delete its `placeholder: true` line';
  return [
    `${lead} (docs/author.md, 'Before launch: your own material'):`,
    ...spots.map((spot) => `  ${describeSpot(spot)}`),
  ].join('\n');
}
