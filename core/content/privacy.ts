/**
 * The privacy page's text (`/privacy`) and the notice under the cheat-sheet form, from
 * content/privacy.yaml: the author's to adapt (docs/author.md, 'What to adapt to your
 * jurisdiction').
 */

import * as privacyContent from './generated/privacy';

/**
 * The privacy page's version: the day its text last changed (content/privacy.yaml's `version`).
 * Each request records the version its reader agreed under (core/data/consent.ts).
 */
export const privacyVersion = privacyContent.version;

/** Where readers write to see or erase what the site holds about them. */
export const privacyContactEmail = privacyContent.contactEmail;

export interface PrivacySection {
  readonly heading: string;
  readonly paragraphs: readonly string[];
}

export const privacy: {
  readonly heading: string;
  readonly intro: string;
  readonly sections: readonly PrivacySection[];
  readonly contactLead: string;
  readonly homeLink: string;
} = {
  heading: privacyContent.heading,
  intro: privacyContent.intro,
  sections: privacyContent.sections,
  contactLead: privacyContent.contactLead,
  homeLink: privacyContent.homeLink,
};

/** The short notice under the form. */
export const formPrivacyNotice: { readonly text: string; readonly linkText: string } = privacyContent.formNotice;

/** The privacy page's path: a page of core/site-pages.ts, which content reads and never the other way. */
export { privacyPath } from '../site-pages';
