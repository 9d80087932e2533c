import { checkContentPlaceholders } from '../../../ops/preflight/content-check';

const spots = [
  { name: 'the Amazon link', file: 'content/book.yaml', line: 16 },
  { name: 'the podcast link', file: 'content/resources.yaml', line: 13 },
];

describe('the content check', () => {
  test('fails for production, naming each placeholder with its file and line, and says where to replace them', () => {
    const result = checkContentPlaceholders(spots, 'production');
    expect(result).toMatchObject({ name: 'content', status: 'FAIL' });
    expect(result.detail).toBe(
      'placeholders still in content/: content/book.yaml:16: the Amazon link; content/resources.yaml:13: the podcast link',
    );
    expect(result.fix).toMatch(/docs\/author\.md/);
  });

  test('fails without a stage too: the stage-less stack is the live site', () => {
    expect(checkContentPlaceholders(spots, undefined)).toMatchObject({ status: 'FAIL' });
  });

  test('only warns for staging', () => {
    expect(checkContentPlaceholders(spots, 'staging')).toMatchObject({ name: 'content', status: 'WARN' });
  });

  test('passes once no placeholder is left', () => {
    expect(checkContentPlaceholders([], 'production')).toMatchObject({ name: 'content', status: 'PASS' });
  });
});
