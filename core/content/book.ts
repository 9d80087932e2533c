/** Facts about the book itself (content/book.yaml), its subtitle included: all the author's to edit. */

import type { Image } from './image';
import * as bookContent from './generated/book';

export interface Book {
  readonly title: string;
  readonly subtitle: string;
  readonly tagline: string;
  readonly amazonUrl: string;
  readonly cover: Image;
  /** The ISBN (ISBN-13), once there is one: search engines show it with the book. */
  readonly isbn?: string;
}

export const book: Book = {
  title: bookContent.title,
  subtitle: bookContent.subtitle,
  tagline: bookContent.tagline,
  amazonUrl: bookContent.amazon.url,
  cover: bookContent.cover,
  ...(bookContent.isbn && { isbn: bookContent.isbn }),
};

export const heroCopy = {
  /** Fixed by the specification. */
  buyLabel: 'Buy on Amazon',
  cheatSheetLink: bookContent.cheatSheetLink,
} as const;
