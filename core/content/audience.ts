/** The section before the download: who the book is written for (content/audience.yaml). */

import * as audienceContent from './generated/audience';

export const audienceHeading = audienceContent.heading;

export const audiencePoints: readonly string[] = audienceContent.points;
