import path from 'node:path';
import { initialJavaScript, initialJavaScriptBudgetBytes } from '../../../frontend/build/initial-javascript';

describe('the initial JavaScript of /', () => {
  const measured = initialJavaScript(path.join(process.cwd(), 'frontend/dist'));

  test('loads at least one script', () => {
    expect(measured.scripts.length).toBeGreaterThan(0);
  });

  test('stays within the 90 KB gzip budget', () => {
    expect(measured.gzipBytes).toBeLessThanOrEqual(initialJavaScriptBudgetBytes);
  });
});
