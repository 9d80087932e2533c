/** The rule packs with -c waf=true in us-east-1: one synth of the product for this file. */
import { synthWithRulePacks } from '../support/synth';
import { freshOutdir, removeOutdirs } from '../support/rule-packs';

afterAll(removeOutdirs);

describe('the rule packs, with -c waf=true in us-east-1 (one stack)', () => {
  test('leave nothing open and nothing stale', () => {
    const report = synthWithRulePacks({
      outdir: freshOutdir(),
      context: { waf: 'true' },
      deploymentTarget: { account: '123456789012', region: 'us-east-1' },
    });
    expect(report.open).toEqual([]);
    expect(report.stale).toEqual([]);
  });
});
