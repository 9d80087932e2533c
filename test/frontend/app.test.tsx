import { render, screen } from '@testing-library/react';
import { book } from '../../core/content/book';
import { privacy } from '../../core/content/privacy';
import { headerCopy } from '../../core/content/site';
import { App } from '../../frontend/src/app';

describe('the app routes', () => {
  test.each(['/', '/index.html'])('%s is the landing page', (path) => {
    render(<App path={path} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(book.title);
  });

  test.each(['/privacy', '/privacy.html'])('%s is the privacy page, in the site layout', (path) => {
    render(<App path={path} />);
    expect(screen.getByRole('heading', { level: 1, name: privacy.heading })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: headerCopy.cheatSheetLink })).toHaveAttribute('href', '/#download-section');
  });

  test.each([
    ['/cheat-sheet/sent', 'Cheat Sheet Sent'],
    ['/cheat-sheet/not-confirmed', 'Verification Required'],
    ['/cheat-sheet/email-configuration-error', 'Domain Verification Error'],
    ['/cheat-sheet/not-sent', 'Error Processing Request'],
  ])('%s is the form result page headed %s', (path, title) => {
    render(<App path={path} />);
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument();
  });

  test.each(['/about', '/download-section', '/index.htm', '/a/b/c', '/cheat-sheet', '/cheat-sheet/sent/'])(
    '%s is the not-found page',
    (path) => {
      render(<App path={path} />);
      expect(screen.getByRole('heading', { name: '404' })).toBeInTheDocument();
    },
  );
});
