/** The MPC Framework's learning outline: three phases, each with one item per area. */

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

export const outlineIntro =
  'The MPC Framework walks you through three phases. In each one you work on all three areas of the business at once, so nothing falls behind.';

export const outlinePhases: readonly OutlinePhase[] = [
  {
    title: 'Initial Review',
    days: 'Days 1–30',
    items: [
      { area: 'Money', content: 'Set up financial controls and reporting' },
      { area: 'People', content: 'Assess team structure and roles' },
      { area: 'Capacity', content: 'Evaluate current operational capabilities' },
    ],
  },
  {
    title: 'Deep Dive',
    days: 'Days 31–60',
    items: [
      { area: 'Money', content: 'Implement KPIs and financial metrics' },
      { area: 'People', content: 'Develop team training and culture initiatives' },
      { area: 'Capacity', content: 'Optimize workflows and processes' },
    ],
  },
  {
    title: 'Sustained Improvement',
    days: 'Days 61–100',
    items: [
      { area: 'Money', content: 'Establish growth-focused financial strategies' },
      { area: 'People', content: 'Build high-performing team dynamics' },
      { area: 'Capacity', content: 'Scale operations for future growth' },
    ],
  },
];
