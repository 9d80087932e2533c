/** What the page's one up-front script does on each kind of page. */

import { startPage } from '../../frontend/src/start-page';

async function runLoader() {
  startPage();
  await Promise.resolve();
}

test('on the not-found page, logs the unknown path to the console', async () => {
  window.history.replaceState(null, '', '/no/such/page');
  document.body.innerHTML = '<main id="main" class="not-found" data-not-found=""><h1>404</h1></main>';
  const logged = jest.spyOn(console, 'error').mockImplementation(() => {});

  await runLoader();

  expect(logged).toHaveBeenCalledWith('404 Error: User attempted to access non-existent route:', '/no/such/page');
});

test('on a page without the island or the not-found marker, does nothing', async () => {
  window.history.replaceState(null, '', '/cheat-sheet/sent');
  document.body.innerHTML = '<main id="main"><h1>Cheat Sheet Sent</h1></main>';
  const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
  const observer = jest.fn();
  window.IntersectionObserver = observer as never;

  await runLoader();

  expect(logged).not.toHaveBeenCalled();
  expect(observer).not.toHaveBeenCalled();
});
