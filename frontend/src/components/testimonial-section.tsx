import { ratingLabel, testimonial, testimonialHeading } from '../../../core/content/testimonial';
import { StarIcon } from './icons';
import { Section } from './section';

export function TestimonialSection() {
  return (
    <Section name="testimonial" title={testimonialHeading} tinted>
      <figure className="testimonial">
        <p className="testimonial__stars" role="img" aria-label={ratingLabel(testimonial.rating)}>
          {Array.from({ length: testimonial.rating }, (_, index) => (
            <StarIcon key={index} className="star" />
          ))}
        </p>
        <blockquote className="testimonial__quote">
          <p>“{testimonial.text}”</p>
        </blockquote>
        <figcaption className="testimonial__author">
          <span className="testimonial__name">{testimonial.author}</span>
          <span className="testimonial__role">{testimonial.role}</span>
        </figcaption>
      </figure>
    </Section>
  );
}
