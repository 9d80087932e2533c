import { visitBeaconRoute } from '../../../core/api/routes';
import { AboutAuthor } from './about-author';
import { AudienceSection } from './audience-section';
import { DownloadSection } from './download-section';
import { FrameworkIntro } from './framework-intro';
import { FreeResources } from './free-resources';
import { Hero } from './hero';
import { LearningOutline } from './learning-outline';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { TestimonialSection } from './testimonial-section';

/** The sections in the spec's order. */
export function LandingPage() {
  return (
    <>
      <SiteHeader />
      <main id="main">
        <Hero />
        <FrameworkIntro />
        <LearningOutline />
        <AboutAuthor />
        <TestimonialSection />
        <FreeResources />
        <AudienceSection />
        <DownloadSection />
      </main>
      <SiteFooter />
      {/* The funnel's visit counter: an image, so readers without JavaScript count too; hidden, it
          draws nothing, and the browser still fetches it (no cookie, nothing stored: core/data/funnel.ts). */}
      <img src={visitBeaconRoute} alt="" width={1} height={1} hidden decoding="async" fetchPriority="low" />
    </>
  );
}
