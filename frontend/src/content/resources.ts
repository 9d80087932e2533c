/** The Free Resources section's cards. */

export type ResourceIcon = 'guide' | 'video' | 'podcast';

export interface ResourceCard {
  readonly title: string;
  readonly description: string;
  /** Where the card leads; null while the resource is not out yet. */
  readonly link: string | null;
  /** The card's button; null when the card's logo is the link instead. */
  readonly buttonText: string | null;
  readonly icon: ResourceIcon;
}

export const resourcesHeading = 'Free Resources';

export const resourcesIntro = 'More help for your first 100 days, at no cost.';

export const podcastLogo = {
  src: '/images/podcast-logo.svg',
  alt: 'The Owner’s First 100 Days podcast',
  width: 160,
  height: 160,
} as const;

export const resourceCards: readonly ResourceCard[] = [
  {
    title: 'MPC Framework Guide',
    description: 'A printable guide to the Money, People, Capacity framework, with worksheets for each phase.',
    link: null,
    buttonText: 'Coming Soon',
    icon: 'guide',
  },
  {
    title: 'Implementation Videos',
    description: 'Short videos that walk you through putting each part of the framework into practice.',
    link: null,
    buttonText: 'Coming Soon',
    icon: 'video',
  },
  {
    title: 'The Owner’s First 100 Days Podcast',
    description: 'Conversations with owners and operators about the decisions that shape a new business.',
    link: 'https://podcasts.apple.com/us/search?term=first%20100%20days%20ownership',
    buttonText: null,
    icon: 'podcast',
  },
];
