/** The About the Author section. The name and profile links are the owner's to change here. */

export interface SocialLink {
  readonly network: 'Facebook' | 'Instagram' | 'LinkedIn';
  readonly url: string;
}

export interface Author {
  readonly name: string;
  readonly bio: readonly string[];
  readonly social: readonly SocialLink[];
}

export const aboutHeading = 'About the Author';

export const author: Author = {
  name: 'Jordan Ellis',
  bio: [
    'Jordan Ellis is a seasoned COO and military veteran who has spent two decades turning around small and mid-sized businesses.',
    'Jordan created the MPC Framework to give new owners the plan they wish they had on day one: a disciplined, step-by-step way to take control of Money, People, and Capacity.',
  ],
  social: [
    { network: 'Facebook', url: 'https://www.facebook.com/mpcframework' },
    { network: 'Instagram', url: 'https://www.instagram.com/mpcframework' },
    { network: 'LinkedIn', url: 'https://www.linkedin.com/in/mpcframework' },
  ],
};

/**
 * How the cheat-sheet e-mail is signed: the author, by name, so the reader knows who writes to
 * them (and no team is invented).
 */
export const emailSignOff = { closing: 'To your first 100 days,', signer: author.name } as const;

export const socialListLabel = (authorName: string) => `${authorName} on social media`;

export const socialLinkLabel = (authorName: string, network: SocialLink['network']) => `${authorName} on ${network}`;
