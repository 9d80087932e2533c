import { outlinePhases } from '../../frontend/src/content/outline';

test('the outline has three phases of three items', () => {
  expect(outlinePhases.flatMap((p) => p.items)).toHaveLength(9);
});
