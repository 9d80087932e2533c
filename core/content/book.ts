/** Facts about the book itself. The title and store link are the owner's to change here. */

import type { Image } from './image';

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
  title: 'The First 100 Days of Ownership',
  subtitle: 'A 100-Day Blueprint for Mastering Money, People, and Capacity',
  tagline:
    'You bought the business. Now run it with confidence. The MPC Framework turns your first 100 days into a clear plan for your finances, your team and your operations.',
  amazonUrl: 'https://www.amazon.com/s?k=A+100-Day+Blueprint+for+Mastering+Money%2C+People%2C+and+Capacity',
  cover: {
    src: '/images/book-cover.svg',
    alt: 'Cover of The First 100 Days of Ownership: A 100-Day Blueprint for Mastering Money, People, and Capacity',
    width: 320,
    height: 480,
  },
};

export const heroCopy = {
  buyLabel: 'Buy on Amazon',
  cheatSheetLink: 'Get the Free Cheat Sheet',
} as const;
