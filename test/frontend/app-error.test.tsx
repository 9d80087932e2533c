import { render, screen } from '@testing-library/react';
import { App } from '../../frontend/src/app';

// The landing page fails to render, as a bug in any section would.
jest.mock('../../frontend/src/components/landing-page', () => ({
  LandingPage: () => {
    throw new Error('The learning outline could not be rendered');
  },
}));

test('the app shows the error fallback with the error text when a page fails to render', () => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  render(<App path="/" />);
  expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
  expect(screen.getByText('The learning outline could not be rendered')).toBeInTheDocument();
  expect(screen.getByRole('main')).toBeInTheDocument();
});
