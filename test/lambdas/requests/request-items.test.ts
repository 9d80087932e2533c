/** The request items' shared conditions: alternatives joined without grouping parentheses. */

import { anyOf, claimableCondition, claimCondition } from '../../../lambdas/requests/request-items';

/** The condition with its function calls and IN lists taken out: what is left holds any grouping parenthesis. */
const groupingOf = (condition: string) =>
  condition.replace(/\b\w+\s*\([^()]*\)/g, 'call').replace(/\bIN\s*\([^()]*\)/g, 'IN list');

test('joins alternatives with OR, each with the condition every one needs, in front', () => {
  expect(anyOf(['#a = :a', '#b = :b AND #c = :c'], 'email = :email')).toBe(
    'email = :email AND #a = :a OR email = :email AND #b = :b AND #c = :c',
  );
  expect(anyOf(['#a = :a', '#b = :b'])).toBe('#a = :a OR #b = :b');
});

test.each([
  ['what a send may claim', claimableCondition],
  ['a claim', claimCondition()],
  ["a claim of a submission's request", claimCondition('ada@example.com')],
])('%s is written without grouping parentheses, which the local twin parses slowly', (_, condition) => {
  expect(groupingOf(condition)).not.toMatch(/[()]/);
});
