/** Site-wide copy: page title, description, footer and the not-found page. */

import { book } from './book';

export const site = {
  title: `${book.title}: ${book.subtitle}`,
  description:
    'The MPC Framework for new business owners: master Money, People, and Capacity in your first 100 days. Get the free cheat sheet.',
  footer: `© ${book.title}. All rights reserved.`,
  /** The name under the icon on a phone's home screen (the web manifest's short_name): at most about 12 to 15 characters. */
  shortName: 'First 100 Days',
} as const;

export const headerCopy = {
  cheatSheetLink: 'Free Cheat Sheet',
} as const;

/** Read to screen-reader users on every link that opens a new tab. */
export const newTabHint = 'Opens in a new tab';

export const notFound = {
  code: '404',
  message: 'Oops! Page not found',
  homeLink: 'Return to Home',
} as const;

export const errorFallback = {
  title: 'Unexpected Application Error!',
} as const;
