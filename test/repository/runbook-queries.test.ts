/**
 * docs/operate.md gives a Logs Insights filter for every failure kind of the catalogue, on the
 * `errorName` the functions log (lambdas/shared/errors.ts): a kind added to the catalogue without
 * its query, or a typed error renamed, fails here.
 */
import { failureKindList } from '../../core/api/catalogue/failures';
import * as errors from '../../lambdas/shared/errors';
import { readDoc, section } from '../support/docs';

const queries = section(readDoc('operate.md'), 'Logs Insights queries');

test.each(failureKindList.map((kind) => [kind.code]))('the runbook has a query for %s', (code) => {
  expect(queries).toMatch(new RegExp(`^\\| \`${code}\` +\\| \`filter [^|]+\` +\\|$`, 'm'));
});

test('each query filters on the name of the typed error that carries its kind', () => {
  const classes = Object.values(errors).filter(
    (value) => typeof value === 'function' && value.prototype instanceof errors.ProductError,
  ) as unknown as (new (message: string) => errors.ProductError)[];
  for (const ErrorClass of classes) {
    const error = new ErrorClass('x');
    const code = failureKindList.find((kind) => kind.name === error.kind)?.code;
    expect(queries).toContain(`| \`${code}\``);
    expect(queries).toMatch(new RegExp(`\\| \`${code}\` +\\| \`filter errorName = "${error.name}"\``));
  }
});
