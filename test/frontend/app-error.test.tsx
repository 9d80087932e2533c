import { render, screen } from '@testing-library/react';
import { CheatSheetIsland } from '../../frontend/src/components/cheat-sheet-island';

// The form fails to render, as a bug in it would.
jest.mock('../../frontend/src/components/cheat-sheet-form', () => ({
  CheatSheetForm: () => {
    throw new Error('The form could not be rendered');
  },
}));

test('the island shows the error fallback with the error text in the form’s place when the form fails to render', () => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  render(<CheatSheetIsland />);
  const fallback = screen.getByRole('alert');
  expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
  expect(fallback).toHaveTextContent('The form could not be rendered');
  expect(screen.queryByRole('main')).not.toBeInTheDocument(); // it sits inside the page's own main
});
