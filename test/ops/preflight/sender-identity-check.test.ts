import { GetEmailIdentityCommand, NotFoundException, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { checkSenderIdentity, type SenderIdentityInput } from '../../../ops/preflight/sender-identity-check';

const ses = new SESv2Client({ region: 'eu-west-1' });
const sesMock = mockClient(ses);
const firstDeploy: SenderIdentityInput = {
  identity: 'cheatsheet@example.com',
  region: 'eu-west-1',
  senderIdentityExists: false,
  stack: { kind: 'absent' },
};
const update: SenderIdentityInput = { ...firstDeploy, stack: { kind: 'exists', status: 'UPDATE_COMPLETE' } };

const identityAbsent = () =>
  sesMock.on(GetEmailIdentityCommand).rejects(new NotFoundException({ message: 'not found', $metadata: {} }));
const identityPresent = (verified: boolean) =>
  sesMock
    .on(GetEmailIdentityCommand, { EmailIdentity: 'cheatsheet@example.com' })
    .resolves({ VerifiedForSendingStatus: verified, VerificationStatus: verified ? 'SUCCESS' : 'PENDING' });

beforeEach(() => sesMock.reset());

describe('the sender identity check', () => {
  test('passes when the identity does not exist: the stack creates it', async () => {
    identityAbsent();
    expect(await checkSenderIdentity(ses, firstDeploy)).toMatchObject({
      status: 'PASS',
      detail: expect.stringContaining('the stack creates it'),
    });
  });

  test('fails when the identity exists before the stack, naming it and saying it already exists', async () => {
    identityPresent(true);
    const result = await checkSenderIdentity(ses, firstDeploy);
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('cheatsheet@example.com already exists');
    expect(result.fix).toContain('-c senderIdentityExists=true');
  });

  test('passes when the identity exists before the stack and senderIdentityExists=true', async () => {
    identityPresent(true);
    expect((await checkSenderIdentity(ses, { ...firstDeploy, senderIdentityExists: true })).status).toBe('PASS');
  });

  test('fails when senderIdentityExists=true names an identity that does not exist', async () => {
    identityAbsent();
    expect((await checkSenderIdentity(ses, { ...firstDeploy, senderIdentityExists: true })).status).toBe('FAIL');
  });

  test("passes when the stack's identity exists and is verified", async () => {
    identityPresent(true);
    expect((await checkSenderIdentity(ses, update)).detail).toContain('verified for sending');
  });

  test('warns when the identity exists but is not verified', async () => {
    identityPresent(false);
    expect(await checkSenderIdentity(ses, update)).toMatchObject({
      status: 'WARN',
      detail: expect.stringContaining('PENDING'),
    });
  });

  test('treats a stack left by a failed first create as no stack', async () => {
    identityPresent(true);
    expect(
      (await checkSenderIdentity(ses, { ...firstDeploy, stack: { kind: 'not-created', status: 'ROLLBACK_COMPLETE' } }))
        .status,
    ).toBe('FAIL');
  });
});
