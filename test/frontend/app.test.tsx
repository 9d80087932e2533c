import { render, screen } from '@testing-library/react';
import { App } from '../../frontend/src/app';

describe('the app routes', () => {
  test.each(['/', '/index.html'])('%s is the landing page', (path) => {
    render(<App path={path} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('The First 100 Days of Ownership');
  });

  test.each(['/privacy', '/privacy.html'])('%s is the privacy page, in the site layout', (path) => {
    render(<App path={path} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Free Cheat Sheet' })).toHaveAttribute('href', '/#download-section');
  });

  test.each(['/about', '/download-section', '/index.htm', '/a/b/c'])('%s is the not-found page', (path) => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    render(<App path={path} />);
    expect(screen.getByRole('heading', { name: '404' })).toBeInTheDocument();
    jest.restoreAllMocks();
  });
});
