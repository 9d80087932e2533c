/** The reader testimonial (content/testimonial.yaml); its role and rating are the specification's. */

import * as testimonialContent from './generated/testimonial';

export interface Testimonial {
  readonly text: string;
  readonly author: string;
  readonly role: string;
  /** Out of five. */
  readonly rating: number;
}

/** Fixed by the specification. */
export const testimonialHeading = 'What Readers Are Saying';

export const testimonial: Testimonial = {
  text: testimonialContent.text,
  author: testimonialContent.author,
  role: 'Business Owner',
  rating: 5,
};

export const ratingLabel = (rating: number) => `Rated ${rating} out of 5 stars`;
