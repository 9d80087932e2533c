import { checkContentPlaceholders } from '../../../ops/preflight/content-check';

describe('the content check', () => {
  test('warns, naming each placeholder left, and says where to replace them', () => {
    const result = checkContentPlaceholders(['the Amazon link', 'the podcast link']);
    expect(result).toMatchObject({ name: 'content', status: 'WARN' });
    expect(result.detail).toBe('placeholders still in content/: the Amazon link, the podcast link');
    expect(result.fix).toMatch(/docs\/author\.md/);
  });

  test('passes once no placeholder is left', () => {
    expect(checkContentPlaceholders([])).toMatchObject({ name: 'content', status: 'PASS' });
  });
});
