import { render, screen } from '@testing-library/react';
import { NotFoundPage } from '../../../frontend/src/components/not-found-page';

describe('the not-found page', () => {
  test('shows 404, Oops! Page not found and a Return to Home link to /', () => {
    render(<NotFoundPage />);
    expect(screen.getByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('Oops! Page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });

  test('is marked for the loader, which logs the unknown path (test/frontend/loader.test.ts)', () => {
    render(<NotFoundPage />);
    expect(screen.getByRole('main')).toHaveAttribute('data-not-found');
  });
});
