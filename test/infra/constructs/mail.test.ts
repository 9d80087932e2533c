import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Mail, type MailProps, noSenderDomainWarning } from '../../../infra/constructs/mail';
import { bareStack } from '../support/bare-stack';
import { App } from 'aws-cdk-lib';
import { exampleSender, resourceByPrefix, validationReportsOf } from '../support/synth';

const account = '123456789012';
const region = 'eu-west-1';

/** The Mail in a stack of its own; an account and region so ARNs and records read as literals. */
function mailInBareStack(props: Partial<MailProps> = {}) {
  const stack = bareStack({ env: { account, region } });
  const mail = new Mail(stack, 'Mail', { senderEmail: exampleSender, ...props });
  return { stack, mail, template: Template.fromStack(stack) };
}

describe('the mail construct', () => {
  test('verifies the sender address as an SES identity by default', () => {
    const { template } = mailInBareStack();
    template.resourceCountIs('AWS::SES::EmailIdentity', 1);
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: exampleSender });
  });

  test('verifies the whole sender domain with Easy DKIM when senderDomain is given, and outputs its records', () => {
    const { template } = mailInBareStack({ senderDomain: 'example.com' });
    template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'example.com',
      DkimAttributes: { SigningEnabled: true },
      DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
    });
    for (const index of [1, 2, 3]) {
      template.hasOutput(`SenderDomainDkimRecord${index}`, { Value: Match.anyValue() });
    }
  });

  test('names the identity the smoke test checks: the address, or the domain when one is given', () => {
    expect(mailInBareStack().mail.identityName).toBe(exampleSender);
    expect(mailInBareStack({ senderDomain: 'example.com' }).mail.identityName).toBe('example.com');
  });
});

describe('the mail construct with an existing SES identity', () => {
  test('creates no identity when senderIdentityExists is set', () => {
    const { template } = mailInBareStack({ senderDomain: 'example.com', senderIdentityExists: true });
    template.resourceCountIs('AWS::SES::EmailIdentity', 0);
  });

  test("sends as exactly the existing domain identity: its ARN is the one the stack's own identity would have", () => {
    const { stack, mail } = mailInBareStack({ senderDomain: 'example.com', senderIdentityExists: true });
    expect(stack.resolve(mail.identityArn)).toBe(`arn:aws:ses:${region}:${account}:identity/example.com`);
  });

  test('sends as exactly the existing address identity when there is no senderDomain', () => {
    const { stack, mail } = mailInBareStack({ senderIdentityExists: true });
    expect(stack.resolve(mail.identityArn)).toBe(`arn:aws:ses:${region}:${account}:identity/${exampleSender}`);
  });

  test('still sends through its own configuration set', () => {
    const { stack, mail, template } = mailInBareStack({ senderIdentityExists: true });
    const configurationSet = resourceByPrefix(template, 'AWS::SES::ConfigurationSet', 'MailConfigurationSet');
    expect(stack.resolve(mail.configurationSetArn)).toEqual({
      'Fn::Join': ['', [`arn:aws:ses:${region}:${account}:configuration-set/`, { Ref: configurationSet.logicalId }]],
    });
  });

  test('outputs no DKIM records for an existing domain identity (they are in the SES console)', () => {
    const { template } = mailInBareStack({ senderDomain: 'example.com', senderIdentityExists: true });
    expect(template.findOutputs('*')).toEqual({});
  });

  test('refuses a MAIL FROM subdomain, which CloudFormation can set only on an identity it creates', () => {
    expect(() =>
      mailInBareStack({ senderDomain: 'example.com', senderIdentityExists: true, mailFromSubdomain: 'mail' }),
    ).toThrow('mailFromSubdomain needs an identity the stack creates');
  });
});

describe('the deliverability of the mail', () => {
  test('warns at synth, naming senderDomain and DMARC, when there is no senderDomain', () => {
    const { stack } = mailInBareStack();
    Annotations.fromStack(stack).hasWarning(
      '/TestStack/Mail',
      Match.stringLikeRegexp(`senderDomain.*DMARC.*${noSenderDomainWarning}`),
    );
  });

  test('prints the warning in the report of the synth, naming the rule to acknowledge it', () => {
    const { stack } = mailInBareStack();
    const reports = validationReportsOf(stack.node.root as App);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('WARNING No senderDomain');
    expect(reports[0]).toContain(`Acknowledge with 'Annotation::${noSenderDomainWarning}'`);
  });

  test('does not warn when senderDomain is given', () => {
    const { stack } = mailInBareStack({ senderDomain: 'example.com' });
    Annotations.fromStack(stack).hasNoWarning('*', Match.anyValue());
    expect(validationReportsOf(stack.node.root as App)).toEqual([]);
  });

  test('sends with MAIL FROM <mailFromSubdomain>.<senderDomain>, falling back to SES own until the MX record exists', () => {
    const { template } = mailInBareStack({ senderDomain: 'example.com', mailFromSubdomain: 'mail' });
    template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'example.com',
      MailFromAttributes: { MailFromDomain: 'mail.example.com', BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' },
    });
  });

  test("outputs the MAIL FROM domain's MX record, at the feedback endpoint of the stack's region", () => {
    const { template } = mailInBareStack({ senderDomain: 'example.com', mailFromSubdomain: 'mail' });
    template.hasOutput('MailFromMxRecord', { Value: `mail.example.com MX 10 feedback-smtp.${region}.amazonses.com` });
  });

  test("outputs the MAIL FROM domain's SPF record, which lets SES send for it", () => {
    const { template } = mailInBareStack({ senderDomain: 'example.com', mailFromSubdomain: 'mail' });
    template.hasOutput('MailFromSpfRecord', { Value: 'mail.example.com TXT "v=spf1 include:amazonses.com ~all"' });
  });

  test('sets no MAIL FROM domain and outputs no MAIL FROM records without mailFromSubdomain', () => {
    const { template } = mailInBareStack({ senderDomain: 'example.com' });
    const identity = resourceByPrefix(template, 'AWS::SES::EmailIdentity', 'MailSenderIdentity');
    expect(identity.resource.Properties).not.toHaveProperty('MailFromAttributes');
    expect(Object.keys(template.findOutputs('*')).filter((name) => name.startsWith('MailFrom'))).toEqual([]);
  });

  test('refuses a MAIL FROM subdomain without senderDomain', () => {
    expect(() => mailInBareStack({ mailFromSubdomain: 'mail' })).toThrow('mailFromSubdomain needs senderDomain');
  });

  test('refuses a MAIL FROM subdomain that is not one DNS label', () => {
    expect(() => mailInBareStack({ senderDomain: 'example.com', mailFromSubdomain: 'mail.bounces' })).toThrow(
      'is not one DNS label',
    );
  });
});

describe('the SES configuration set', () => {
  let template: Template;
  beforeAll(() => {
    ({ template } = mailInBareStack());
  });

  test('has reputation metrics on and suppresses addresses that bounce or complain', () => {
    template.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      ReputationOptions: { ReputationMetricsEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
  });

  test('delivers only over TLS (TlsPolicy REQUIRE)', () => {
    template.hasResourceProperties('AWS::SES::ConfigurationSet', { DeliveryOptions: { TlsPolicy: 'REQUIRE' } });
  });

  test('leaves the sending state alone, so a deploy never resumes a paused configuration set', () => {
    template.hasResourceProperties('AWS::SES::ConfigurationSet', { SendingOptions: Match.absent() });
  });

  test('publishes bounces, complaints, rejects and deliveries to CloudWatch by configuration set', () => {
    const configurationSet = resourceByPrefix(template, 'AWS::SES::ConfigurationSet', 'MailConfigurationSet');

    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: configurationSet.logicalId },
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['bounce', 'complaint', 'reject', 'delivery'],
        CloudWatchDestination: {
          DimensionConfigurations: [
            {
              DimensionName: 'ses:configuration-set',
              DimensionValueSource: 'messageTag',
              DefaultDimensionValue: { Ref: configurationSet.logicalId },
            },
          ],
        },
      },
    });
  });

  test("sends the configuration set's delivery, bounce and complaint events to EventBridge's default bus", () => {
    const { template } = mailInBareStack();
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: Match.objectLike({
        Enabled: true,
        MatchingEventTypes: ['delivery', 'bounce', 'complaint'],
        EventBridgeDestination: {
          EventBusArn: `arn:aws:events:${region}:${account}:event-bus/default`,
        },
      }),
    });
  });
});
