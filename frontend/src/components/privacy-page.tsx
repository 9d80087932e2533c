import { mailingListSection } from '../../../core/content/mailing-list-notice';
import { privacy, privacyContactEmail } from '../../../core/content/privacy';
import { buildMailProvider } from '../mail-provider';
import type { MailProvider } from '../../../core/data/mail-provider';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** `/privacy`: what the site keeps about a reader, in the site's layout. */
export function PrivacyPage({ mailProvider = buildMailProvider }: { readonly mailProvider?: MailProvider } = {}) {
  const mailingList = mailingListSection(mailProvider);
  const sections = mailingList ? [...privacy.sections, mailingList] : privacy.sections;
  return (
    <>
      <SiteHeader cheatSheetHref="/#download-section" />
      <main id="main" className="section privacy">
        <div className="container privacy__body">
          <h1 className="section__title">{privacy.heading}</h1>
          <p className="section__lead">{privacy.intro}</p>
          {sections.map((section) => (
            <section key={section.heading} aria-labelledby={headingId(section.heading)}>
              <h2 id={headingId(section.heading)}>{section.heading}</h2>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </section>
          ))}
          <p>
            {privacy.contactLead} <a href={`mailto:${privacyContactEmail}`}>{privacyContactEmail}</a>
          </p>
          <p>
            <a href="/">{privacy.homeLink}</a>
          </p>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}

const headingId = (heading: string) =>
  `privacy-${heading
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
