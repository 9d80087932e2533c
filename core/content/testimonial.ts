/** The reader testimonial. */

export interface Testimonial {
  readonly text: string;
  readonly author: string;
  readonly role: string;
  /** Out of five. */
  readonly rating: number;
}

export const testimonialHeading = 'What Readers Are Saying';

export const testimonial: Testimonial = {
  text: 'I bought my first company with no idea where to start. This book gave me a plan for every week of my first 100 days. My books are clean, my team is on board, and we are already growing.',
  author: 'Maria Thompson',
  role: 'Business Owner',
  rating: 5,
};

export const ratingLabel = (rating: number) => `Rated ${rating} out of 5 stars`;
