import { render, screen } from '@testing-library/react';
import { ErrorBoundary } from '../../../frontend/src/components/error-boundary';

function Broken(): never {
  throw new Error('The outline failed to load');
}

describe('the error fallback', () => {
  test('shows Unexpected Application Error! with the error text when rendering fails', () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('The outline failed to load')).toBeInTheDocument();
    jest.restoreAllMocks();
  });

  test('leaves the error in the console, as React logs what a boundary caught', () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    const errors = logged.mock.calls.flat().filter((argument) => argument instanceof Error);
    expect(errors.map((error) => (error as Error).message)).toContain('The outline failed to load');
    jest.restoreAllMocks();
  });

  test('renders its children when nothing fails', () => {
    render(
      <ErrorBoundary>
        <p>All good</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText('All good')).toBeInTheDocument();
    expect(screen.queryByText('Unexpected Application Error!')).not.toBeInTheDocument();
  });
});
