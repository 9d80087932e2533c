/** The About the Author section (content/author.yaml): the name, biography, photo and profile links. */

import type { Image } from './image';
import * as authorContent from './generated/author';

export interface SocialLink {
  readonly network: 'Facebook' | 'Instagram' | 'LinkedIn';
  readonly url: string;
}

export interface Author {
  readonly name: string;
  readonly bio: readonly string[];
  /** Without one, the page shows the author's initials (`authorInitials`). */
  readonly photo?: Image;
  readonly social: readonly SocialLink[];
}

/** Fixed by the specification. */
export const aboutHeading = 'About the Author';

export const author: Author = {
  name: authorContent.name,
  bio: authorContent.bio,
  ...(authorContent.photo && { photo: authorContent.photo }),
  social: authorContent.social.map(({ network, url }) => ({ network, url })),
};

/** The photo's stand-in: the first letters of the name's first and last words. */
export const authorInitials = (name: string) => {
  const words = name.split(/\s+/).filter(Boolean);
  return [words[0], words.length > 1 ? words.at(-1) : undefined].map((word) => word?.[0]?.toUpperCase() ?? '').join('');
};

/**
 * How the cheat-sheet e-mail is signed: the author, by name, so the reader knows who writes to
 * them (and no team is invented).
 */
export const emailSignOff = { closing: authorContent.emailClosing, signer: author.name } as const;

export const socialListLabel = (authorName: string) => `${authorName} on social media`;

export const socialLinkLabel = (authorName: string, network: SocialLink['network']) => `${authorName} on ${network}`;
