/**
 * The privacy page draws the author's privacy text (content/privacy.yaml, read through its content
 * module, so a copy edit changes no test): its heading and introduction, each section as a region
 * named by its heading, and the contact address as a mailto link.
 */
import { render, screen } from '@testing-library/react';
import { PrivacyPage } from '../../../frontend/src/components/privacy-page';
import { privacy, privacyContactEmail } from '../../../core/content/privacy';

describe('the privacy page', () => {
  test("is headed by the privacy text's heading, with its introduction", () => {
    render(<PrivacyPage />);
    expect(screen.getByRole('heading', { level: 1, name: privacy.heading })).toBeInTheDocument();
    expect(screen.getByText(privacy.intro)).toBeInTheDocument();
  });

  test.each(privacy.sections.map((section) => [section.heading, section] as const))(
    'shows the section %s as a region named by its heading, with each of its paragraphs',
    (heading, section) => {
      render(<PrivacyPage />);
      const region = screen.getByRole('region', { name: heading });
      for (const paragraph of section.paragraphs) expect(region).toHaveTextContent(paragraph);
    },
  );

  test('tells how to ask for access or erasure, with a mailto link to the contact address', () => {
    render(<PrivacyPage />);
    expect(screen.getByRole('link', { name: privacyContactEmail })).toHaveAttribute(
      'href',
      `mailto:${privacyContactEmail}`,
    );
  });
});
