import {
  MailFromDomainNotVerifiedException,
  MessageRejected,
  SendEmailCommand,
  SESv2Client,
  TooManyRequestsException,
} from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { classifySesError, sesEmailSender } from '../../../lambdas/mail/email-sender';

const metadata = (httpStatusCode?: number) => ({ $metadata: { httpStatusCode } });

describe('sesEmailSender', () => {
  const sesMock = mockClient(SESv2Client);
  afterEach(() => sesMock.reset());
  afterAll(() => sesMock.restore());

  const email = {
    from: 'cheatsheet@example.com',
    to: 'ada@example.com',
    subject: 'Your MPC 100-Day Cheat Sheet',
    html: '<p>Hi Ada,</p>',
    text: 'Hi Ada,',
    attachment: {
      fileName: 'cheat-sheet.pdf',
      contentType: 'application/pdf',
      content: new Uint8Array([37, 80, 68, 70]),
    },
  };

  test('sends Simple content with HTML and text bodies and the attachment, no hand-made MIME', async () => {
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'message-1' });

    await expect(sesEmailSender(new SESv2Client({}))(email)).resolves.toEqual({ messageId: 'message-1' });

    const [call] = sesMock.commandCalls(SendEmailCommand);
    expect(call!.args[0].input).toEqual({
      FromEmailAddress: 'cheatsheet@example.com',
      Destination: { ToAddresses: ['ada@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Your MPC 100-Day Cheat Sheet', Charset: 'UTF-8' },
          Body: { Html: { Data: '<p>Hi Ada,</p>', Charset: 'UTF-8' }, Text: { Data: 'Hi Ada,', Charset: 'UTF-8' } },
          Attachments: [
            {
              FileName: 'cheat-sheet.pdf',
              ContentType: 'application/pdf',
              ContentDisposition: 'ATTACHMENT',
              ContentTransferEncoding: 'BASE64',
              RawContent: email.attachment.content,
            },
          ],
        },
      },
    });
  });

  test('sends through the configuration set when one is given, and names none otherwise', async () => {
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'message-1' });
    const send = sesEmailSender(new SESv2Client({}));

    await send({ ...email, configurationSetName: 'cheat-sheet-mail' });
    await send(email);

    const [withSet, withoutSet] = sesMock.commandCalls(SendEmailCommand).map((call) => call.args[0].input);
    expect(withSet!.ConfigurationSetName).toBe('cheat-sheet-mail');
    expect(withoutSet).not.toHaveProperty('ConfigurationSetName');
  });

  test('raises a typed error when SES refuses', async () => {
    sesMock
      .on(SendEmailCommand)
      .rejects(new MessageRejected({ message: 'Email address is not verified.', ...metadata(400) }));

    await expect(sesEmailSender(new SESv2Client({}))(email)).rejects.toMatchObject({ kind: 'senderNotVerified' });
  });
});

describe('classifySesError', () => {
  test.each([
    [
      'MessageRejected: not verified',
      new MessageRejected({
        message: 'Email address is not verified. The following identities failed the check',
        ...metadata(400),
      }),
      'senderNotVerified',
    ],
    [
      'MailFromDomainNotVerifiedException',
      new MailFromDomainNotVerifiedException({ message: 'MAIL FROM domain', ...metadata(400) }),
      'senderNotVerified',
    ],
    [
      'MessageRejected for another reason',
      new MessageRejected({ message: 'Message contains a virus', ...metadata(400) }),
      'emailRejected',
    ],
    [
      'BadRequestException: Illegal address (the recipient)',
      Object.assign(new Error('Illegal address'), { name: 'BadRequestException', ...metadata(400) }),
      'recipientRejected',
    ],
    [
      'MessageRejected naming a suppressed recipient',
      new MessageRejected({ message: 'Address blacklisted: ada@example.com', ...metadata(400) }),
      'recipientRejected',
    ],
    [
      'a BadRequestException about something else than an address',
      Object.assign(new Error('Configuration set does not exist'), { name: 'BadRequestException', ...metadata(400) }),
      'emailRejected',
    ],
    [
      'TooManyRequestsException',
      new TooManyRequestsException({ message: 'slow down', ...metadata(429) }),
      'emailServiceUnavailable',
    ],
    [
      'a 5xx',
      Object.assign(new Error('boom'), { name: 'InternalFailure', ...metadata(500) }),
      'emailServiceUnavailable',
    ],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      'emailServiceUnavailable',
    ],
  ])('treats %s as %p', (_, error, expected) => {
    const classified = classifySesError(error, 'cheatsheet@example.com', 'ada@example.com');

    expect(classified).toMatchObject({ kind: expected });
    expect((classified as Error & { cause?: unknown }).cause).toBe(error);
  });
});
