/**
 * docs/operate.md gives a Logs Insights filter for every failure kind of the catalogue, on the
 * `failureKind` the functions log (lambdas/runtime/logger.ts): a kind added to the catalogue without
 * its query fails here.
 */
import { failureKindList } from '../../core/api/catalogue/failures';
import { readDoc, section } from '../support/docs';

const queries = section(readDoc('operate.md'), 'Logs Insights queries');

test.each(failureKindList.map((kind) => [kind.code]))('the runbook has a query for %s', (code) => {
  expect(queries).toMatch(new RegExp(`^\\| \`${code}\` +\\| \`filter [^|]+\` +\\|$`, 'm'));
});

test('each query filters on the failure kind the functions log (lambdas/runtime/logger.ts), unexpected on the error not being a ProductError', () => {
  for (const kind of failureKindList) {
    const filter =
      kind.name === 'unexpected'
        ? 'filter statusCode = 500 and errorName != "ProductError"'
        : `filter failureKind = "${kind.name}"`;
    expect(queries).toMatch(
      new RegExp(`\\| \`${kind.code}\` +\\| \`${filter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``),
    );
  }
});
