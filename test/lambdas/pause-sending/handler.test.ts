/** The pause function, invoked as SNS invokes it, with SESv2 mocked (aws-sdk-client-mock). */

import { PutConfigurationSetSendingOptionsCommand, SESv2Client, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import type { SNSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { handler } from '../../../lambdas/pause-sending/handler';

const sesMock = mockClient(SESv2Client);
const environment = { CONFIGURATION_SET_NAME: 'product-set', PAUSE_ON_ALARMS: 'BounceRate,ComplaintRate' };
const saved = { ...process.env };

beforeEach(() => {
  sesMock.reset();
  sesMock.on(PutConfigurationSetSendingOptionsCommand).resolves({});
  Object.assign(process.env, environment);
});
afterEach(() => {
  process.env = { ...saved };
});
afterAll(() => sesMock.restore());

/** The SNS event CloudWatch's notification arrives in (fields this function does not read left out). */
function snsEvent(...messages: string[]): SNSEvent {
  return {
    Records: messages.map((Message, index) => ({
      EventSource: 'aws:sns',
      EventVersion: '1.0',
      EventSubscriptionArn: 'arn:aws:sns:us-east-1:111122223333:alarms:subscription',
      Sns: {
        Type: 'Notification',
        MessageId: `message-${index}`,
        TopicArn: 'arn:aws:sns:us-east-1:111122223333:alarms',
        Subject: 'ALARM',
        Message,
        Timestamp: '2026-11-24T18:00:00.000Z',
        SignatureVersion: '1',
        Signature: 'signature',
        SigningCertUrl: 'https://sns.us-east-1.amazonaws.com/cert.pem',
        UnsubscribeUrl: 'https://sns.us-east-1.amazonaws.com/unsubscribe',
        MessageAttributes: {},
      },
    })),
  };
}

const alarm = (AlarmName: string, NewStateValue: string) =>
  JSON.stringify({ AlarmName, NewStateValue, OldStateValue: 'OK', NewStateReason: 'Threshold Crossed', Trigger: {} });

test('pauses sending for the configuration set when the bounce-rate alarm goes to ALARM', async () => {
  await handler(snsEvent(alarm('BounceRate', 'ALARM')));

  expect(sesMock.commandCalls(PutConfigurationSetSendingOptionsCommand).map((call) => call.args[0].input)).toEqual([
    { ConfigurationSetName: 'product-set', SendingEnabled: false },
  ]);
});

test('pauses sending when the complaint-rate alarm goes to ALARM', async () => {
  await handler(snsEvent(alarm('ComplaintRate', 'ALARM')));

  expect(sesMock.commandCalls(PutConfigurationSetSendingOptionsCommand)).toHaveLength(1);
});

test.each(['OK', 'INSUFFICIENT_DATA'])('leaves sending as it is when a reputation alarm goes to %s', async (state) => {
  await handler(snsEvent(alarm('BounceRate', state)));

  expect(sesMock.commandCalls(PutConfigurationSetSendingOptionsCommand)).toHaveLength(0);
});

test('leaves sending as it is when another alarm of the topic goes to ALARM', async () => {
  await handler(snsEvent(alarm('SendFunctionErrors', 'ALARM')));

  expect(sesMock.commandCalls(PutConfigurationSetSendingOptionsCommand)).toHaveLength(0);
});

test('skips a message that is not an alarm notification, and still acts on the others', async () => {
  await handler(snsEvent('not json', JSON.stringify({ hello: 'world' }), alarm('BounceRate', 'ALARM')));

  expect(sesMock.commandCalls(PutConfigurationSetSendingOptionsCommand)).toHaveLength(1);
});

test('fails the invocation when SES refuses, so Lambda retries it', async () => {
  sesMock
    .on(PutConfigurationSetSendingOptionsCommand)
    .rejects(new TooManyRequestsException({ message: 'Rate exceeded', $metadata: {} }));

  await expect(handler(snsEvent(alarm('BounceRate', 'ALARM')))).rejects.toThrow('Rate exceeded');
});

test('fails as a configuration fault without a configuration set name, pausing nothing', async () => {
  delete process.env.CONFIGURATION_SET_NAME;

  await expect(handler(snsEvent(alarm('BounceRate', 'ALARM')))).rejects.toThrow(
    expect.objectContaining({ kind: 'misconfigured' }),
  );
  expect(sesMock.commandCalls(PutConfigurationSetSendingOptionsCommand)).toHaveLength(0);
});
