import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brandColours } from '../../../core/documents/brand';

const styles = readFileSync(path.join(process.cwd(), 'frontend/src/styles.css'), 'utf8');

describe("the PDF's and the e-mail's colours", () => {
  test.each(Object.entries(brandColours))("%s is the page's own (its CSS variable in styles.css)", (name, hex) => {
    expect(styles).toMatch(new RegExp(`--${name}: ${hex};`));
  });
});
