/**
 * The privacy page's text (`/privacy`) and the notice under the cheat-sheet form. The author's
 * to adapt: the contact address, and the wording their jurisdiction requires (docs/author.md,
 * 'What to adapt to your jurisdiction').
 */

/** Where readers write to see or erase what the site holds about them. */
export const privacyContactEmail = 'privacy@mpcframework.com';

export interface PrivacySection {
  readonly heading: string;
  readonly paragraphs: readonly string[];
}

export const privacy = {
  heading: 'Privacy',
  intro:
    'This site collects as little as it can: only what it needs to send you the free cheat sheet. Here is what it keeps, why, for how long, and how to have it deleted.',
  sections: [
    {
      heading: 'What we collect',
      paragraphs: [
        'When you request the cheat sheet, we store the name and the e-mail address you enter, when you made the request, and whether the cheat sheet was sent to you (and when).',
        'To stop the form from being abused, the site counts how many cheat sheets are sent per e-mail address and per network. It stores a one-way hash of the address and a keyed hash of your IP address with those counts, never the addresses themselves.',
        'Like any website, the servers log each visit: your IP address, the page, the time and your browser. These logs are used only to keep the site running and secure.',
        'We set no cookies, run no analytics or advertising scripts, and do not track you across other sites.',
      ],
    },
    {
      heading: 'Why',
      paragraphs: [
        'To e-mail you the cheat sheet you asked for, to stop the form from being used to flood an inbox (a limit on how many cheat sheets one address receives per day), and so the author knows who asked for it.',
        'We never sell your details or share them with anyone else for their own use.',
      ],
    },
    {
      heading: 'For how long',
      paragraphs: [
        'We keep your request until you ask us to erase it, or until the author deletes it. The counters are deleted automatically: the one for your e-mail address a day after the last cheat sheet sent to it, the one for your network about an hour after your last request. The visit logs are deleted after at most a year.',
      ],
    },
    {
      heading: 'Who processes it',
      paragraphs: [
        "The site runs on Amazon Web Services (AWS), which stores your request and sends the e-mail on the author's behalf, in the AWS region the site is deployed in. AWS processes it under its own data-processing terms and does not use it for anything else.",
      ],
    },
    {
      heading: 'Your rights: access and erasure',
      paragraphs: [
        'You may ask to see what we hold about you, to correct it, or to have it erased. Write to the address below from the address you used; we answer within 30 days, and an erasure removes every request of your address and its counter.',
      ],
    },
  ] satisfies readonly PrivacySection[],
  contactLead: 'Contact:',
  homeLink: 'Back to the home page',
} as const;

/** The short notice under the form. */
export const formPrivacyNotice = {
  text: 'We use your name and e-mail only to send you the cheat sheet.',
  linkText: 'How we handle your data',
} as const;

/** The privacy page's path: a page of core/site-pages.ts, which content reads and never the other way. */
export { privacyPath } from '../site-pages';
