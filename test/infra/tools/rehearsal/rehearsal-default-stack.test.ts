/**
 * `npm run rehearse` without a stage: the default stack (web ACL on, us-east-1), every edge judged
 * against its own policies and none refused; a function role without its table grant is not an
 * edge, but a key policy without the CloudFront distribution is.
 */
import { rehearse } from '../../../../infra/tools/rehearsal/rehearsal';
import { deployedStacks, resourcesOf, synthAssembly } from '../../support/deployed-app';

let assembly: string;
beforeAll(() => {
  assembly = synthAssembly({ senderEmail: 'cheatsheet@example.com' });
});

test('the default stack refuses no edge', async () => {
  const report = await rehearse(deployedStacks(assembly));
  expect(report.refusals).toEqual([]);
  expect(report.edgesJudged).toBeGreaterThan(25);
});

test("a key policy without CloudFront's statement fails the rehearsal, naming the distribution, the action and the key", async () => {
  const report = await rehearse(
    deployedStacks(assembly, {
      stack: 'First100DaysSite',
      change: (template) => {
        for (const [, key] of resourcesOf(template, 'AWS::KMS::Key')) {
          const statements = key.Properties.KeyPolicy.Statement as { Principal?: { Service?: string } }[];
          key.Properties.KeyPolicy.Statement = statements.filter(
            (statement) => statement.Principal?.Service !== 'cloudfront.amazonaws.com',
          );
        }
      },
    }),
  );
  expect(report.refusals).toEqual([
    expect.stringMatching(
      /^distribution \S+ → key EncryptionKey\S+ of bucket \S+: cloudfront\.amazonaws\.com may not kms:Decrypt on arn:aws:kms:/,
    ),
  ]);
});
