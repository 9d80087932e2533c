/** The intro after the hero: the three pillars of the MPC Framework. */

import type { Area } from './outline';

export interface Pillar {
  readonly area: Area;
  readonly summary: string;
}

export const frameworkHeading = 'The MPC Framework';

export const frameworkIntro =
  'Most new owners are pulled in every direction at once. The MPC Framework gives your first 100 days a shape: three areas to master, in three deliberate phases.';

export const pillars: readonly Pillar[] = [
  { area: 'Money', summary: 'Know where every dollar goes, and make the numbers work for you.' },
  { area: 'People', summary: 'Lead the team you inherited and build the one you need.' },
  { area: 'Capacity', summary: 'Make operations reliable today and ready to grow tomorrow.' },
];
