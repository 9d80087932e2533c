/** The section before the download: who the book is written for. */

export const audienceHeading = 'Who This Book Is For';

export const audiencePoints: readonly string[] = [
  'You just bought, inherited or opened a business and the first 100 days feel like a blur.',
  'You are great at your craft but new to running the finances, the team and the operations.',
  'You want a proven, step-by-step plan instead of learning every lesson the hard way.',
];
