import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { CheatSheetIsland } from '../../../frontend/src/components/cheat-sheet-island';
import { LandingPage } from '../../../frontend/src/components/landing-page';
import { hydrateCheatSheetForm } from '../../../frontend/src/islands/hydrate-cheat-sheet-form';
import { backendReplies, calls } from '../api-server';

/** The landing page as the build pre-renders it, in the document. */
function prerenderedPage(): HTMLElement {
  document.body.innerHTML = `<div id="root">${renderToString(<LandingPage />)}</div>`;
  return document.getElementById('cheat-sheet-form-island')!;
}

async function hydrate(island: HTMLElement) {
  await act(async () => hydrateCheatSheetForm(island));
  await waitFor(() => expect(island).toHaveAttribute('data-hydrated'));
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the island in the pre-rendered page', () => {
  test('is rendered inside the page exactly as the island renders alone, so hydration matches', () => {
    const island = prerenderedPage();
    const alone = document.createElement('div');
    alone.innerHTML = renderToString(<CheatSheetIsland />);
    expect(island.innerHTML).toBe(alone.innerHTML);
  });

  test('is a form that works without script: POST to the form route, with the honeypot', () => {
    prerenderedPage();
    const form = document.querySelector('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/cheat-sheet-form');
    expect([...form.elements].map((element) => element.getAttribute('name'))).toEqual([
      'name',
      'email',
      'website',
      'hasBook',
      null, // the submit button
    ]);
  });

  test('hydrates without a warning and marks itself hydrated', async () => {
    const logged = jest.spyOn(console, 'error');
    const warned = jest.spyOn(console, 'warn');
    const island = prerenderedPage();

    await hydrate(island);

    expect(logged).not.toHaveBeenCalled();
    expect(warned).not.toHaveBeenCalled();
  });

  test('keeps what the visitor typed and ticked before it hydrated, and sends it', async () => {
    backendReplies();
    const island = prerenderedPage();
    (screen.getByLabelText('Name') as HTMLInputElement).value = 'Ada Early';
    (screen.getByLabelText('Email') as HTMLInputElement).value = 'ada.early@example.com';
    (screen.getByRole('checkbox') as HTMLInputElement).checked = true;

    await hydrate(island);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send Me the Cheat Sheet' }));

    expect(await screen.findByText('Cheat Sheet Sent')).toBeInTheDocument();
    expect(calls.map((call) => call.body)).toEqual([
      { name: 'Ada Early', email: 'ada.early@example.com', website: '', hasBook: true },
      { name: 'Ada Early', email: 'ada.early@example.com', website: '', hasBook: true },
    ]);
  });

  test('once hydrated, handles the submit itself: the unticked box shows Verification Required', async () => {
    backendReplies();
    const island = prerenderedPage();
    await hydrate(island);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');

    await user.click(screen.getByRole('button', { name: 'Send Me the Cheat Sheet' }));

    expect(await screen.findByText('Verification Required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
