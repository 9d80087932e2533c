/**
 * The Free Resources section's cards. The heading, the first two cards' titles and their
 * 'Coming Soon' buttons are fixed by the specification; the rest is content/resources.yaml.
 */

import type { Image } from './image';
import * as resourcesContent from './generated/resources';

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

export const resourcesIntro = resourcesContent.intro;

export const resourceCards: readonly ResourceCard[] = [
  {
    title: 'MPC Framework Guide',
    description: resourcesContent.guideDescription,
    link: null,
    buttonText: 'Coming Soon',
    icon: 'guide',
  },
  {
    title: 'Implementation Videos',
    description: resourcesContent.videosDescription,
    link: null,
    buttonText: 'Coming Soon',
    icon: 'video',
  },
  {
    title: resourcesContent.podcast.title,
    description: resourcesContent.podcast.description,
    link: resourcesContent.podcast.url,
    buttonText: null,
    icon: 'podcast',
    logo: resourcesContent.podcast.logo,
  },
];
