/**
 * The evaluator's verdicts the rehearsal adds to or reads beyond the plain decision: a role's trust
 * policy must allow its assumption itself, a statement alone is judged with its conditions, and a
 * key policy's encryption-context condition is read (the evaluator reads none by itself).
 */
import { statementUses } from '../../../../infra/tools/rehearsal/function-calls';
import { judge } from '../../../../infra/tools/rehearsal/judge';
import type { Policy, Statement } from '../../../../infra/tools/rehearsal/policies';

const operator = 'arn:aws:iam::111111111111:role/operator';
const sendRole = 'arn:aws:iam::111111111111:role/send';
const policy = (...statements: Statement[]): Policy => ({ Version: '2012-10-17', Statement: statements });
const assume = { principal: operator, action: 'sts:AssumeRole', resource: sendRole, resourceAccount: '111111111111' };
const mayAssume = {
  name: 'operator',
  policy: policy({ Effect: 'Allow', Action: 'sts:AssumeRole', Resource: sendRole }),
};

test("a role is assumed only when its trust policy allows it: the caller's own Allow is not enough, even in one account", async () => {
  const trustsLambdaOnly = policy({
    Effect: 'Allow',
    Principal: { Service: 'lambda.amazonaws.com' },
    Action: 'sts:AssumeRole',
  });
  expect((await judge(assume, { identity: [mayAssume], resource: trustsLambdaOnly })).allowed).toBe(false);
  // A trust policy left with no statement at all (as the mutation test leaves one) refuses too.
  expect(await judge(assume, { identity: [mayAssume], resource: policy() })).toEqual(
    expect.objectContaining({
      allowed: false,
      missing: expect.arrayContaining(["an Allow in the role's trust policy"]),
    }),
  );
});

test('a trust policy naming the caller lets it assume the role with no Allow of its own', async () => {
  const trustsOperator = policy({ Effect: 'Allow', Principal: { AWS: operator }, Action: 'sts:AssumeRole' });
  expect((await judge(assume, { identity: [], resource: trustsOperator })).allowed).toBe(true);
});

test('a statement alone is used by a request only when the request meets its conditions, not merely its action and resource', async () => {
  const toTheAuthor: Statement = {
    Effect: 'Allow',
    Action: 'ses:SendEmail',
    Resource: '*',
    Condition: { 'ForAllValues:StringEquals': { 'ses:Recipients': ['author@example.com'] } },
  };
  const mail = (recipients: string[]) => ({
    action: 'ses:SendEmail',
    resource: 'arn:aws:ses:eu-west-1:111111111111:identity/example.com',
    context: { 'ses:Recipients': recipients },
  });
  expect(await statementUses(toTheAuthor, operator, mail(['author@example.com']))).toBe(true);
  expect(await statementUses(toTheAuthor, operator, mail(['reader@example.com']))).toBe(false);
});

test('a statement on an action with no resource (`*`) is used when it allows it', async () => {
  const suppression: Statement = { Effect: 'Allow', Action: 'ses:DeleteSuppressedDestination', Resource: '*' };
  expect(await statementUses(suppression, operator, { action: 'ses:DeleteSuppressedDestination', resource: '*' })).toBe(
    true,
  );
});

test("a key policy's encryption-context condition allows the context it names, and refuses another", async () => {
  const logsKey = policy({
    Effect: 'Allow',
    Principal: { Service: 'logs.eu-west-1.amazonaws.com' },
    Action: ['kms:GenerateDataKey*', 'kms:Decrypt*'],
    Resource: '*',
    Condition: {
      ArnLike: { 'kms:EncryptionContext:aws:logs:arn': 'arn:aws:logs:eu-west-1:111111111111:log-group:Site-*' },
    },
  });
  const encrypt = (group: string) => ({
    principal: 'logs.eu-west-1.amazonaws.com',
    action: 'kms:GenerateDataKey',
    resource: 'arn:aws:kms:eu-west-1:111111111111:key/leads',
    resourceAccount: '111111111111',
    context: { 'kms:EncryptionContext:aws:logs:arn': `arn:aws:logs:eu-west-1:111111111111:log-group:${group}` },
  });
  expect((await judge(encrypt('Site-SendLogs'), { identity: [], resource: logsKey })).allowed).toBe(true);
  expect((await judge(encrypt('Other-Logs'), { identity: [], resource: logsKey })).allowed).toBe(false);
});
