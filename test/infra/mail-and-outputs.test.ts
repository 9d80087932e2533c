import { Match, type Template } from 'aws-cdk-lib/assertions';
import { exampleSender, resourceByPrefix, synthTemplate } from './support/synth';

describe('the mail construct', () => {
  test('verifies the sender address as an SES identity by default', () => {
    const template = synthTemplate();
    template.resourceCountIs('AWS::SES::EmailIdentity', 1);
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: exampleSender });
  });

  test('verifies the whole sender domain with Easy DKIM when senderDomain is given, and outputs its records', () => {
    const template = synthTemplate({ context: { senderDomain: 'example.com' } });
    template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'example.com',
      DkimAttributes: { SigningEnabled: true },
      DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
    });
    for (const index of [1, 2, 3]) {
      template.hasOutput(`SenderDomainDkimRecord${index}`, { Value: Match.anyValue() });
    }
  });
});

describe('the SES configuration set', () => {
  let template: Template;
  beforeAll(() => {
    template = synthTemplate();
  });

  test('has reputation metrics on and suppresses addresses that bounce or complain', () => {
    template.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      ReputationOptions: { ReputationMetricsEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
      SendingOptions: { SendingEnabled: true },
    });
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
});

describe('the stack outputs', () => {
  let template: Template;
  beforeAll(() => {
    template = synthTemplate();
  });

  test('gives the site URL, on the CloudFront domain when no custom domain is set', () => {
    const distributionId = resourceByPrefix(template, 'AWS::CloudFront::Distribution', 'SiteDistribution').logicalId;
    template.hasOutput('SiteUrl', {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] },
    });
    template.hasOutput('DistributionDomainName', { Value: { 'Fn::GetAtt': [distributionId, 'DomainName'] } });
  });

  test("gives the API's own URL", () => {
    const apiId = resourceByPrefix(template, 'AWS::ApiGatewayV2::Api', 'ApiHttpApi').logicalId;
    template.hasOutput('ApiUrl', {
      Value: {
        'Fn::Join': [
          '',
          ['https://', { Ref: apiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/'],
        ],
      },
    });
  });

  test('gives the names of the two tables and the PDF bucket', () => {
    const tableId = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataRequestsTable').logicalId;
    const quotaTableId = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataSendQuotaTable').logicalId;
    const bucketId = resourceByPrefix(template, 'AWS::S3::Bucket', 'DataCheatSheetBucket').logicalId;
    template.hasOutput('TableName', { Value: { Ref: tableId } });
    template.hasOutput('SendQuotaTableName', { Value: { Ref: quotaTableId } });
    template.hasOutput('CheatSheetBucketName', { Value: { Ref: bucketId } });
  });

  test('has no DKIM outputs for an address identity', () => {
    expect(Object.keys(template.findOutputs('*')).sort()).toEqual([
      'AlarmTopicArn',
      'ApiUrl',
      'CheatSheetBucketName',
      'DashboardUrl',
      'DistributionDomainName',
      'EncryptionKeyArn',
      'SendQuotaTableName',
      'SenderIdentityName',
      'SiteUrl',
      'TableName',
    ]);
  });

  test('names the SES identity the smoke test checks: the address, or the domain when one is given', () => {
    template.hasOutput('SenderIdentityName', {
      Value: { Ref: resourceByPrefix(template, 'AWS::SES::EmailIdentity', 'MailSenderIdentity').logicalId },
    });
    const withDomain = synthTemplate({
      context: { senderEmail: 'cheatsheet@example.com', senderDomain: 'example.com' },
    });
    withDomain.hasOutput('SenderIdentityName', {
      Value: { Ref: resourceByPrefix(withDomain, 'AWS::SES::EmailIdentity', 'MailSenderIdentity').logicalId },
    });
    withDomain.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'example.com' });
  });
});
