import { render, screen } from '@testing-library/react';
import { NotFoundPage } from '../../../frontend/src/components/not-found-page';

describe('the not-found page', () => {
  test('shows 404, Oops! Page not found and a Return to Home link to /', () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    render(<NotFoundPage path="/no-such-page" />);
    expect(screen.getByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('Oops! Page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    jest.restoreAllMocks();
  });

  test('logs the unknown path to the console', () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    render(<NotFoundPage path="/no-such-page" />);
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('non-existent route'), '/no-such-page');
    logged.mockRestore();
  });
});
