/**
 * Site-wide copy: page title, description, footer and the not-found page. The description, the
 * short name and the header's link are content/site.yaml's; the not-found page's words are the
 * specification's.
 */

import { book } from './book';
import * as siteContent from './generated/site';

export const site = {
  title: `${book.title}: ${book.subtitle}`,
  description: siteContent.description,
  footer: `© ${book.title}. All rights reserved.`,
  /** The name under the icon on a phone's home screen (the web manifest's short_name): at most about 12 to 15 characters. */
  shortName: siteContent.shortName,
  /** The site's public address, without a trailing slash: the e-mail's links start with it. */
  address: siteContent.address.replace(/\/+$/, ''),
} as const;

export const headerCopy = {
  cheatSheetLink: siteContent.headerCheatSheetLink,
} as const;

export const footerCopy = {
  bookLink: siteContent.footerBookLink,
  privacyLink: siteContent.footerPrivacyLink,
} as const;

/** Read to screen-reader users on every link that opens a new tab. */
export const newTabHint = 'Opens in a new tab';

export const notFound = {
  code: '404',
  message: 'Oops! Page not found',
  homeLink: 'Return to Home',
} as const;
