import { testimonial, testimonialHeading } from '../content/testimonial';
import { StarIcon } from './icons';

export function TestimonialSection() {
  return (
    <section className="section section--tinted" aria-labelledby="testimonial-title">
      <div className="container">
        <h2 id="testimonial-title" className="section__title">
          {testimonialHeading}
        </h2>
        <figure className="testimonial">
          <p className="testimonial__stars" role="img" aria-label={`Rated ${testimonial.rating} out of 5 stars`}>
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
      </div>
    </section>
  );
}
