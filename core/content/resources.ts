/** The Free Resources section's cards. */

import type { Image } from './image';

export type ResourceIcon = 'guide' | 'video' | 'podcast';

interface ResourceCardBase {
  readonly title: string;
  readonly description: string;
  readonly icon: ResourceIcon;
}

/** A resource not out yet: its button is shown disabled. */
export interface ComingSoonCard extends ResourceCardBase {
  readonly link: null;
  readonly buttonText: string;
}

/** A resource elsewhere on the web: its logo links there, in a new tab. */
export interface LinkedCard extends ResourceCardBase {
  readonly link: string;
  readonly buttonText: null;
  readonly logo: Image;
}

export type ResourceCard = ComingSoonCard | LinkedCard;

export const resourcesHeading = 'Free Resources';

export const resourcesIntro = 'More help for your first 100 days, at no cost.';

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
    logo: {
      src: '/images/podcast-logo.svg',
      alt: 'The Owner’s First 100 Days podcast logo',
      width: 160,
      height: 160,
    },
  },
];
