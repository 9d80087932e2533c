/**
 * The MPC Framework's learning outline: three phases, each with one item per area. The heading,
 * phases and items are fixed by the specification; the intro and the days are the author's
 * (content/outline.yaml).
 */

import * as outlineContent from './generated/outline';

export type Area = 'Money' | 'People' | 'Capacity';

export interface OutlineItem {
  readonly area: Area;
  readonly content: string;
}

export interface OutlinePhase {
  readonly title: string;
  /** When the phase runs within the first 100 days. */
  readonly days: string;
  readonly items: readonly [OutlineItem, OutlineItem, OutlineItem];
}

export const outlineHeading = "What You'll Learn to Maximize Your First 100 Days";

export const outlineIntro = outlineContent.intro;

export const outlinePhases: readonly OutlinePhase[] = [
  {
    title: 'Initial Review',
    days: outlineContent.days[0],
    items: [
      { area: 'Money', content: 'Set up financial controls and reporting' },
      { area: 'People', content: 'Assess team structure and roles' },
      { area: 'Capacity', content: 'Evaluate current operational capabilities' },
    ],
  },
  {
    title: 'Deep Dive',
    days: outlineContent.days[1],
    items: [
      { area: 'Money', content: 'Implement KPIs and financial metrics' },
      { area: 'People', content: 'Develop team training and culture initiatives' },
      { area: 'Capacity', content: 'Optimize workflows and processes' },
    ],
  },
  {
    title: 'Sustained Improvement',
    days: outlineContent.days[2],
    items: [
      { area: 'Money', content: 'Establish growth-focused financial strategies' },
      { area: 'People', content: 'Build high-performing team dynamics' },
      { area: 'Capacity', content: 'Scale operations for future growth' },
    ],
  },
];
