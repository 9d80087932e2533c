/** The intro after the hero: the three pillars of the MPC Framework (content/framework.yaml). */

import type { Area } from './outline';
import * as frameworkContent from './generated/framework';

export interface Pillar {
  readonly area: Area;
  readonly summary: string;
}

export const frameworkHeading = frameworkContent.heading;

export const frameworkIntro = frameworkContent.intro;

export const pillars: readonly Pillar[] = frameworkContent.pillars;
