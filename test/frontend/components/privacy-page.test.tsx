import { render, screen } from '@testing-library/react';
import { PrivacyPage } from '../../../frontend/src/components/privacy-page';
import { privacyContactEmail } from '../../../core/content/privacy';

describe('the privacy page', () => {
  test('says what is collected: the name, the address, when, and whether the sheet was sent', () => {
    render(<PrivacyPage />);
    const section = screen.getByRole('region', { name: 'What we collect' });
    for (const word of ['name', 'e-mail address', 'when you made the request', 'whether the cheat sheet was sent']) {
      expect(section).toHaveTextContent(word);
    }
  });

  test('says what the limits keep (hashes, never the addresses) and that visits are logged', () => {
    render(<PrivacyPage />);
    const section = screen.getByRole('region', { name: 'What we collect' });
    expect(section).toHaveTextContent('keyed hash of your IP address');
    expect(section).toHaveTextContent('never the addresses themselves');
    expect(section).toHaveTextContent('the servers log each visit');
  });

  test('says why, for how long, and that AWS processes it in the deployment region', () => {
    render(<PrivacyPage />);
    expect(screen.getByRole('region', { name: 'Why' })).toHaveTextContent('e-mail you the cheat sheet');
    expect(screen.getByRole('region', { name: 'For how long' })).toHaveTextContent('until you ask us to erase it');
    expect(screen.getByRole('region', { name: 'Who processes it' })).toHaveTextContent(
      'Amazon Web Services (AWS), which stores your request',
    );
    expect(screen.getByRole('region', { name: 'Who processes it' })).toHaveTextContent('AWS region');
  });

  test('tells how to ask for access or erasure, with a mailto link to the contact address', () => {
    render(<PrivacyPage />);
    expect(screen.getByRole('region', { name: 'Your rights: access and erasure' })).toHaveTextContent('erased');
    expect(screen.getByRole('link', { name: privacyContactEmail })).toHaveAttribute(
      'href',
      `mailto:${privacyContactEmail}`,
    );
  });
});
