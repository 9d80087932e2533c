import { render, screen, within } from '@testing-library/react';
import { ResultPage } from '../../../frontend/src/components/result-page';

const backToForm = () => screen.getByRole('link', { name: 'Back to the form' });

describe('the form result pages (the form sent without its script)', () => {
  test('sent: Cheat Sheet Sent and its description, and the way home', () => {
    render(<ResultPage outcome="sent" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Cheat Sheet Sent' })).toBeInTheDocument();
    expect(screen.getByText("We've sent the cheat sheet to your email. Please check your inbox.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });

  test('not confirmed: Verification Required, asks to confirm the purchase, and leads back to the form', () => {
    render(<ResultPage outcome="notConfirmed" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Verification Required' })).toBeInTheDocument();
    expect(screen.getByText('Please confirm that you have purchased the book')).toBeInTheDocument();
    expect(backToForm()).toHaveAttribute('href', '/#download-section');
  });

  test('email configuration error: the domain error and the inline Email Configuration Error alert', () => {
    render(<ResultPage outcome="emailConfigurationError" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Domain Verification Error' })).toBeInTheDocument();
    expect(
      screen.getByText('The email could not be sent due to domain verification issues. Please contact support.'),
    ).toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Email Configuration Error')).toBeInTheDocument();
    expect(backToForm()).toHaveAttribute('href', '/#download-section');
  });

  test('not sent: Error Processing Request and the details dialog’s suggestions', () => {
    render(<ResultPage outcome="notSent" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Error Processing Request' })).toBeInTheDocument();
    expect(
      screen.getByText('There was a problem sending your cheat sheet. See details for more information.'),
    ).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Error Details' });
    expect(
      within(details)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Try submitting the form again.',
      'Check that your email address is correct.',
      'Contact support if the problem persists.',
    ]);
    expect(backToForm()).toHaveAttribute('href', '/#download-section');
  });
});
