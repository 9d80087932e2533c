import { formResults } from '../../../core/content/form-results';
import type { FormOutcome } from '../../../core/site-pages';
import { EmailConfigAlert } from './email-config-alert';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/**
 * Where the form lands when its script did not handle the submit: what happened, in the words of
 * the toast (and alert, or dialog) the script would have shown, and a way back.
 */
export function ResultPage({ outcome }: { readonly outcome: FormOutcome }) {
  const result = formResults[outcome];
  return (
    <>
      <SiteHeader cheatSheetHref="/#download-section" />
      <main id="main" className="result-page">
        <div className="result-page__card">
          <h1 className="result-page__title">{result.message.title}</h1>
          <p className="result-page__description">{result.message.description}</p>
          {result.alert && <EmailConfigAlert />}
          {result.suggestions && (
            <section className="result-page__details" aria-labelledby="result-details-title">
              <h2 id="result-details-title" className="result-page__details-title">
                {result.suggestions.title}
              </h2>
              <p>{result.suggestions.intro}</p>
              <ul className="dialog__suggestions">
                {result.suggestions.items.map((suggestion) => (
                  <li key={suggestion}>{suggestion}</li>
                ))}
              </ul>
            </section>
          )}
          <a className="button button--primary" href={result.link.href}>
            {result.link.label}
          </a>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
