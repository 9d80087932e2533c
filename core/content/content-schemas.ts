/**
 * What each file in content/ must hold: the author's words, checked when the site, the PDF or
 * the e-mail is built (`npm run content`, content-file.ts). A mistake fails the build with the
 * file, line and field. Only the build imports this module: the page and the functions get the
 * checked data as plain modules (generated/), so neither ships zod nor a YAML parser.
 */

import { z } from 'zod';

const text = z.string().trim().min(1, 'must not be empty');
const paragraphs = z.array(text).min(1, 'needs at least one entry');
const webAddress = z.url({ protocol: /^https$/, hostname: z.regexes.domain }).describe('an https:// address');
const email = z.email('must be an e-mail address');
/** Marks what still stands in for the author's real material (placeholders.ts lists them). */
const placeholder = z.literal(true).optional();

/** An image of frontend/public/images/, with its intrinsic size so the page reserves its space. */
const image = z.strictObject({
  src: z
    .string()
    .regex(/^\/images\/[\w.-]+\.(svg|png|jpe?g|webp|avif)$/, 'must be /images/NAME.svg, .png, .jpg, .webp or .avif'),
  alt: text,
  width: z.int().positive(),
  height: z.int().positive(),
  placeholder,
});

/** One entry per area, in the order Money, People, Capacity. */
const perArea = <T extends z.ZodType>(entry: T) => z.tuple([entry, entry, entry]);

export const contentSchemas = {
  site: z.strictObject({
    description: text,
    address: webAddress,
    placeholder,
    shortName: text.max(15, 'must be at most 15 characters (it sits under a home-screen icon)'),
    headerCheatSheetLink: text,
    footerBookLink: text,
    footerPrivacyLink: text,
  }),
  book: z.strictObject({
    title: text,
    subtitle: text,
    tagline: text,
    amazon: z.strictObject({ url: webAddress, placeholder }),
    cover: image,
    isbn: z
      .string()
      .regex(/^97[89]\d{10}$/, 'must be the 13 digits of an ISBN-13, in quotes')
      .optional(),
    cheatSheetLink: text,
  }),
  author: z.strictObject({
    name: text,
    placeholder,
    bio: paragraphs,
    photo: image.optional(),
    social: z.tuple([
      z.strictObject({ network: z.literal('Facebook'), url: webAddress, placeholder }),
      z.strictObject({ network: z.literal('Instagram'), url: webAddress, placeholder }),
      z.strictObject({ network: z.literal('LinkedIn'), url: webAddress, placeholder }),
    ]),
    emailClosing: text,
  }),
  framework: z.strictObject({
    heading: text,
    intro: text,
    pillars: z.tuple([
      z.strictObject({ area: z.literal('Money'), summary: text }),
      z.strictObject({ area: z.literal('People'), summary: text }),
      z.strictObject({ area: z.literal('Capacity'), summary: text }),
    ]),
  }),
  outline: z.strictObject({
    intro: text,
    days: perArea(text),
  }),
  testimonial: z.strictObject({
    text,
    author: text,
    placeholder,
  }),
  resources: z.strictObject({
    intro: text,
    guideDescription: text,
    videosDescription: text,
    podcast: z.strictObject({ title: text, description: text, url: webAddress, placeholder, logo: image }),
  }),
  audience: z.strictObject({
    heading: text,
    points: paragraphs,
  }),
  cheatSheet: z.strictObject({
    intro: text,
    title: text,
    weeklyReview: z.strictObject({ heading: text, questions: perArea(text) }),
    firstWeekChecklist: paragraphs.max(7, 'fits at most 7 items on the one-page PDF'),
    emailSummary: text,
    mailingListChoice: text,
  }),
  privacy: z.strictObject({
    contactEmail: email,
    placeholder,
    // Recorded with each reader's consent (core/data/consent.ts): the day the text last changed.
    version: z.iso.date('must be a date, YYYY-MM-DD: the day this text last changed'),
    heading: text,
    intro: text,
    sections: z.array(z.strictObject({ heading: text, paragraphs })).min(1),
    contactLead: text,
    homeLink: text,
    formNotice: z.strictObject({ text, linkText: text }),
  }),
} as const;

export type ContentName = keyof typeof contentSchemas;

/** Each content file's checked data, as the page, the PDF and the e-mail read it. */
export type ContentOf<Name extends ContentName> = z.output<(typeof contentSchemas)[Name]>;

/** content/NAME.yaml, in kebab-case. */
export const contentFileName = (name: ContentName) =>
  `${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}.yaml`;
