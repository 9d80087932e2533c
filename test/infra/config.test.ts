import { readFileSync } from 'node:fs';
import { ConfigError, parseDeploymentConfig } from '../../infra/config';

const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d';

function parse(context: Record<string, unknown>) {
  return parseDeploymentConfig((key) => context[key]);
}

function problemsOf(context: Record<string, unknown>): string {
  try {
    parse(context);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('deployment configuration from CDK context', () => {
  test('needs only senderEmail, and fills in the documented defaults', () => {
    expect(parse({ senderEmail: 'cheatsheet@example.com' })).toEqual({
      senderEmail: 'cheatsheet@example.com',
      apiThrottle: { rateLimit: 32, burstLimit: 64 },
      addressDailyCap: 3,
      clientHourlySendCap: 10,
      dailySendBudget: 10_000,
      networkHourlySendCap: 30,
      clientHourlySaveCap: 20,
      networkHourlySaveCap: 60,
      accountConcurrencyLimit: 1000,
      senderIdentityExists: false,
      // The web ACL is part of the default deployment.
      waf: true,
      // So is the proof of work before a send.
      challenge: true,
      // And the canary, the scheduled reader that checks the live site.
      canary: true,
    });
  });

  test('takes an alarmEmail, trimmed', () => {
    expect(parse({ senderEmail: 'cheatsheet@example.com', alarmEmail: ' ops@example.com ' })).toMatchObject({
      alarmEmail: 'ops@example.com',
    });
  });

  test.each(['ops', 'ops@', 'ops@example', 'two words@example.com'])(
    'refuses the malformed alarmEmail %p and says what to pass or that it may be left out',
    (alarmEmail) => {
      const message = problemsOf({ senderEmail: 'cheatsheet@example.com', alarmEmail });
      expect(message).toContain(`alarmEmail "${alarmEmail}" is not an e-mail address`);
      expect(message).toContain('-c alarmEmail=ops@yourdomain.com');
      expect(message).toContain('or leave it out');
    },
  );

  test('reads the daily send budget as a positive whole number', () => {
    expect(parse({ senderEmail: 'cheatsheet@example.com', dailySendBudget: '2000' }).dailySendBudget).toBe(2000);
    expect(problemsOf({ senderEmail: 'cheatsheet@example.com', dailySendBudget: '0' })).toContain(
      'dailySendBudget "0" must be a positive whole number',
    );
  });

  test('refuses a missing senderEmail and says exactly what to pass', () => {
    const message = problemsOf({});
    expect(message).toContain('senderEmail is missing');
    expect(message).toContain('-c senderEmail=you@yourdomain.com');
  });

  test('treats an empty senderEmail (-c senderEmail=) as missing', () => {
    expect(problemsOf({ senderEmail: '  ' })).toContain('senderEmail is missing');
  });

  test.each(['cheatsheet', 'cheatsheet@', '@example.com', 'cheat sheet@example.com', 'a@b', 'a@@b.com'])(
    'refuses the malformed senderEmail %p and says what to pass',
    (senderEmail) => {
      const message = problemsOf({ senderEmail });
      expect(message).toContain(`senderEmail "${senderEmail.trim()}" is not an e-mail address`);
      expect(message).toContain('-c senderEmail=you@yourdomain.com');
    },
  );

  test('takes senderDomain when the sender address is at that domain', () => {
    expect(parse({ senderEmail: 'cheatsheet@Example.com', senderDomain: 'EXAMPLE.com' })).toMatchObject({
      senderEmail: 'cheatsheet@Example.com',
      senderDomain: 'example.com',
    });
  });

  test('refuses a senderDomain the sender address is not at', () => {
    expect(problemsOf({ senderEmail: 'cheatsheet@example.com', senderDomain: 'example.org' })).toContain(
      'is not at senderDomain "example.org"',
    );
  });

  test('refuses a senderDomain that is not a domain name', () => {
    expect(problemsOf({ senderEmail: 'a@example.com', senderDomain: 'not a domain' })).toContain(
      'senderDomain "not a domain" is not a domain name',
    );
  });

  test('takes a custom domain with its us-east-1 certificate', () => {
    expect(parse({ senderEmail: 'a@example.com', domainName: 'www.example.com', certificateArn }).customDomain).toEqual(
      { domainName: 'www.example.com', certificateArn },
    );
  });

  test('refuses a domain name without a certificate, and a certificate without a domain name', () => {
    expect(problemsOf({ senderEmail: 'a@example.com', domainName: 'www.example.com' })).toContain(
      'domainName and certificateArn go together',
    );
    expect(problemsOf({ senderEmail: 'a@example.com', certificateArn })).toContain(
      'domainName and certificateArn go together',
    );
  });

  test('refuses a certificate outside us-east-1, which CloudFront cannot use', () => {
    const euCertificate = certificateArn.replace('us-east-1', 'eu-west-1');
    expect(
      problemsOf({ senderEmail: 'a@example.com', domainName: 'www.example.com', certificateArn: euCertificate }),
    ).toContain('is not an ACM certificate ARN in us-east-1');
  });

  test('reads throttling and the daily cap from -c strings and from cdk.json numbers', () => {
    expect(
      parse({ senderEmail: 'a@example.com', apiRateLimit: '2.5', apiBurstLimit: 5, dailySendCap: '1' }),
    ).toMatchObject({ apiThrottle: { rateLimit: 2.5, burstLimit: 5 }, addressDailyCap: 1 });
  });

  test('reads the client send cap and the daily send budget from -c strings and from cdk.json numbers', () => {
    expect(parse({ senderEmail: 'a@example.com', clientHourlySendCap: '25', dailySendBudget: 5000 })).toMatchObject({
      clientHourlySendCap: 25,
      dailySendBudget: 5000,
    });
  });

  test.each([
    ['true', true],
    ['TRUE', true],
    [true, true],
    ['false', false],
    [false, false],
  ])('reads waf=%p as %p', (value, expected) => {
    expect(parse({ senderEmail: 'a@example.com', waf: value }).waf).toBe(expected);
  });

  test.each([
    ['false', false],
    [false, false],
    ['true', true],
  ])('reads challenge=%p as %p: the proof of work switched off only by false', (value, expected) => {
    expect(parse({ senderEmail: 'a@example.com', challenge: value }).challenge).toBe(expected);
  });

  test('refuses challenge=off, saying it takes true or false', () => {
    expect(problemsOf({ senderEmail: 'a@example.com', challenge: 'off' })).toContain(
      'challenge "off" must be true or false, e.g. -c challenge=true.',
    );
  });

  test.each(['yes', '1', 'on'])('refuses waf=%p, saying it takes true or false', (value) => {
    expect(problemsOf({ senderEmail: 'a@example.com', waf: value })).toContain(
      `waf "${value}" must be true or false, e.g. -c waf=true.`,
    );
  });

  test.each([
    ['apiRateLimit', '0'],
    ['apiBurstLimit', '2.5'],
    ['dailySendCap', '-1'],
    ['dailySendCap', 'three'],
    ['clientHourlySendCap', '0'],
    ['clientHourlySendCap', '2.5'],
    ['dailySendBudget', '-500'],
    ['dailySendBudget', 'plenty'],
  ])('refuses %s=%p', (key, value) => {
    expect(problemsOf({ senderEmail: 'a@example.com', [key]: value })).toContain(
      `${key} "${value}" must be a positive`,
    );
  });

  test('keeps requests by default and reads requestRetentionDays when given', () => {
    expect(parse({ senderEmail: 'a@example.com' })).not.toHaveProperty('requestRetentionDays');
    expect(parse({ senderEmail: 'a@example.com', requestRetentionDays: '365' })).toMatchObject({
      requestRetentionDays: 365,
    });
  });

  test.each(['0', '30.5', 'forever'])('refuses requestRetentionDays=%p with the value and an example', (value) => {
    expect(problemsOf({ senderEmail: 'a@example.com', requestRetentionDays: value })).toContain(
      `requestRetentionDays "${value}" must be a positive whole number, e.g. -c requestRetentionDays=5.`,
    );
  });

  test('lists every problem at once rather than one per attempt', () => {
    const message = problemsOf({ domainName: 'www.example.com', dailySendCap: '0', dailySendBudget: 'x', waf: 'y' });
    expect(message).toContain('senderEmail is missing');
    expect(message).toContain('dailySendBudget "x" must be a positive whole number, e.g. -c dailySendBudget=2000.');
    expect(message).toContain('waf "y" must be true or false');
    expect(message).toContain('domainName and certificateArn go together');
    expect(message).toContain('dailySendCap "0" must be a positive whole number');
  });
});

describe('the limits and switches added with the abuse and first-deploy work', () => {
  test.each([
    ['networkHourlySendCap', 30],
    ['clientHourlySaveCap', 20],
    ['networkHourlySaveCap', 60],
    ['accountConcurrencyLimit', 1000],
  ])('defaults %s to %p', (key, expected) => {
    expect(parse({ senderEmail: 'a@example.com' })).toHaveProperty(key, expected);
  });

  test.each(['networkHourlySendCap', 'clientHourlySaveCap', 'networkHourlySaveCap', 'accountConcurrencyLimit'])(
    'reads %s from a -c string and from a cdk.json number',
    (key) => {
      expect(parse({ senderEmail: 'a@example.com', [key]: '7' })).toHaveProperty(key, 7);
      expect(parse({ senderEmail: 'a@example.com', [key]: 8 })).toHaveProperty(key, 8);
    },
  );

  test.each([
    ['networkHourlySendCap', '0', 30],
    ['clientHourlySaveCap', '2.5', 20],
    ['networkHourlySaveCap', 'many', 60],
    ['accountConcurrencyLimit', '-10', 1000],
  ])('refuses %s=%p, naming the value and an example', (key, value, example) => {
    expect(problemsOf({ senderEmail: 'a@example.com', [key]: value })).toBe(
      `${key} "${value}" must be a positive whole number, e.g. -c ${key}=${example}.`,
    );
  });

  test.each([
    ['true', true],
    ['TRUE', true],
    [true, true],
    ['false', false],
    [false, false],
  ])('reads senderIdentityExists=%p as %p', (value, expected) => {
    expect(parse({ senderEmail: 'a@example.com', senderIdentityExists: value }).senderIdentityExists).toBe(expected);
  });

  test('refuses senderIdentityExists=yes, saying it takes true or false', () => {
    expect(problemsOf({ senderEmail: 'a@example.com', senderIdentityExists: 'yes' })).toBe(
      'senderIdentityExists "yes" must be true or false, e.g. -c senderIdentityExists=true.',
    );
  });

  test('takes mailFromSubdomain with senderDomain, lower-cased', () => {
    expect(
      parse({ senderEmail: 'a@example.com', senderDomain: 'example.com', mailFromSubdomain: 'Mail' }).mailFromSubdomain,
    ).toBe('mail');
  });

  test('refuses mailFromSubdomain without senderDomain, saying the MAIL FROM domain is below it', () => {
    expect(problemsOf({ senderEmail: 'a@example.com', mailFromSubdomain: 'mail' })).toBe(
      'mailFromSubdomain "mail" needs senderDomain: the MAIL FROM domain is a subdomain of the sender\'s verified domain, e.g. -c senderDomain=yourdomain.com -c mailFromSubdomain=mail.',
    );
  });

  test.each(['mail.out', '-mail', 'mail_from'])('refuses mailFromSubdomain=%p, which is not one DNS label', (value) => {
    expect(
      problemsOf({ senderEmail: 'a@example.com', senderDomain: 'example.com', mailFromSubdomain: value }),
    ).toContain(`mailFromSubdomain "${value}" is not one DNS label`);
  });
});

describe('named stages from cdk.json', () => {
  const stages = {
    staging: {
      account: '111111111111',
      region: 'eu-west-1',
      senderEmail: 'cheatsheet@staging.example.com',
      alarmEmail: 'ops@example.com',
      siteUrl: 'https://staging.example.com',
      dailySendBudget: 50,
    },
    production: {
      account: '222222222222',
      region: 'us-east-1',
      senderEmail: 'a@example.com',
      siteUrl: 'https://www.example.com',
    },
  };

  test('takes the stage, its account and region, and its values', () => {
    expect(parse({ stages, stage: 'staging' })).toMatchObject({
      stage: { name: 'staging', account: '111111111111', region: 'eu-west-1' },
      senderEmail: 'cheatsheet@staging.example.com',
      alarmEmail: 'ops@example.com',
      siteUrl: 'https://staging.example.com',
      dailySendBudget: 50,
    });
  });

  test("refuses a stage without its siteUrl, which the pipeline builds the pages' addresses with", () => {
    const withoutSiteUrl = { ...stages.staging, siteUrl: undefined };
    expect(problemsOf({ stages: { staging: withoutSiteUrl }, stage: 'staging' })).toBe(
      'Stage "staging" has no siteUrl: set stages.staging.siteUrl in cdk.json.',
    );
  });

  test.each(['http://www.example.com', 'https://www.example.com/', 'https://www.example.com/book', 'www.example.com'])(
    'refuses the siteUrl %p, which is not an https root address',
    (siteUrl) => {
      expect(problemsOf({ stages: { staging: { ...stages.staging, siteUrl } }, stage: 'staging' })).toBe(
        `siteUrl "${siteUrl}" must be the site's root address, https with a host and nothing after it, e.g. https://www.yourdomain.com.`,
      );
    },
  );

  test("refuses a siteUrl that is not the custom domain's", () => {
    expect(
      problemsOf({
        stages,
        stage: 'staging',
        domainName: 'www.example.org',
        certificateArn,
      }),
    ).toBe(
      'siteUrl "https://staging.example.com" is not the custom domain www.example.org: set it to https://www.example.org.',
    );
  });

  test("each stage of the repository's cdk.json carries its siteUrl", () => {
    const cdkJson = JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: Record<string, unknown> };
    const lookup = (name: string) => (key: string) => ({ ...cdkJson.context, stage: name })[key];
    for (const name of Object.keys(cdkJson.context.stages as object)) {
      expect(parseDeploymentConfig(lookup(name)).siteUrl).toMatch(/^https:\/\/[a-z0-9.-]+$/);
    }
  });

  test('lets -c values override the stage’s', () => {
    expect(parse({ stages, stage: 'staging', alarmEmail: 'oncall@example.com', dailySendBudget: '75' })).toMatchObject({
      alarmEmail: 'oncall@example.com',
      dailySendBudget: 75,
    });
  });

  test('without a stage, has none and ignores the stages', () => {
    expect(parse({ stages, senderEmail: 'a@example.com' })).not.toHaveProperty('stage');
  });

  test('refuses an unknown stage in one line naming it and the known ones', () => {
    expect(problemsOf({ stages, stage: 'qa' })).toBe(
      'Unknown stage "qa": -c stage takes a key of "stages" in cdk.json (one of staging, production).',
    );
  });

  test('refuses a stage when cdk.json has no stages', () => {
    expect(problemsOf({ stage: 'staging', senderEmail: 'a@example.com' })).toBe(
      'Unknown stage "staging": -c stage takes a key of "stages" in cdk.json (none defined).',
    );
  });

  test('refuses a stage missing a value it needs, in one line naming the stage and the value', () => {
    expect(problemsOf({ stages, stage: 'production' })).toBe(
      'Stage "production" has no alarmEmail: set stages.production.alarmEmail in cdk.json.',
    );
  });

  test('accepts the missing value from -c', () => {
    expect(parse({ stages, stage: 'production', alarmEmail: 'ops@example.com' }).alarmEmail).toBe('ops@example.com');
  });

  test('refuses a stage whose account is not 12 digits', () => {
    expect(problemsOf({ stages: { staging: { ...stages.staging, account: '1111' } }, stage: 'staging' })).toBe(
      'account "1111" must be an AWS account ID of 12 digits.',
    );
  });

  test('refuses a stage whose region is not a region', () => {
    expect(problemsOf({ stages: { staging: { ...stages.staging, region: 'Ireland' } }, stage: 'staging' })).toBe(
      'region "Ireland" is not an AWS region, e.g. eu-west-1.',
    );
  });

  test('refuses a value in a stage that the app does not read (a typo)', () => {
    expect(
      problemsOf({ stages: { staging: { ...stages.staging, alarmEmial: 'x@example.com' } }, stage: 'staging' }),
    ).toContain('A stage in cdk.json has "alarmEmial", which is no context value of this app');
  });
});

describe('githubRepository', () => {
  const stages = {
    staging: {
      account: '111111111111',
      region: 'eu-west-1',
      senderEmail: 'a@example.com',
      alarmEmail: 'o@example.com',
      siteUrl: 'https://www.example.com',
    },
  };

  test('is read as owner and name', () => {
    expect(
      parse({ stages, stage: 'staging', githubRepository: 'some-org/first-100-days.site' }).githubRepository,
    ).toEqual({ owner: 'some-org', name: 'first-100-days.site' });
  });

  test('is absent unless given', () => {
    expect(parse({ stages, stage: 'staging' })).not.toHaveProperty('githubRepository');
  });

  test.each(['some-org', 'some-org/', '/name', 'a/b/c', '-org/name', 'org/..'])(
    'refuses %p in one line saying it takes owner/name',
    (value) => {
      expect(problemsOf({ stages, stage: 'staging', githubRepository: value })).toBe(
        `githubRepository "${value}" must be owner/name on GitHub, e.g. -c githubRepository=your-org/first-100-days-site.`,
      );
    },
  );

  test('needs a stage, whose GitHub environment the role trusts', () => {
    expect(problemsOf({ senderEmail: 'a@example.com', githubRepository: 'org/name' })).toBe(
      'githubRepository "org/name" needs a stage: the deploy role trusts only that stage\'s GitHub environment, e.g. -c stage=staging.',
    );
  });
});

describe('githubOidcProviderArn, leadsReaderRoleArn and authorEmail', () => {
  const providerArn = 'arn:aws:iam::111111111111:oidc-provider/token.actions.githubusercontent.com';
  const stages = {
    staging: {
      account: '111111111111',
      region: 'eu-west-1',
      senderEmail: 'a@example.com',
      alarmEmail: 'o@example.com',
      siteUrl: 'https://www.example.com',
    },
  };

  test('takes the existing GitHub OIDC provider with githubRepository', () => {
    expect(
      parse({ stages, stage: 'staging', githubRepository: 'org/name', githubOidcProviderArn: providerArn })
        .githubOidcProviderArn,
    ).toBe(providerArn);
  });

  test("refuses a provider ARN that is not GitHub's", () => {
    const arn = 'arn:aws:iam::111111111111:oidc-provider/accounts.google.com';
    expect(
      problemsOf({ stages, stage: 'staging', githubRepository: 'org/name', githubOidcProviderArn: arn }),
    ).toContain(`githubOidcProviderArn "${arn}" is not the ARN of GitHub's OIDC provider`);
  });

  test('refuses the provider without githubRepository, where nothing would use it', () => {
    expect(problemsOf({ senderEmail: 'a@example.com', githubOidcProviderArn: providerArn })).toBe(
      'githubOidcProviderArn is used only by the DeployAccess stack: pass it with githubRepository, or leave it out.',
    );
  });

  test('takes a leads reader role, and refuses what is not a role ARN', () => {
    const role = 'arn:aws:iam::111111111111:role/team/leads-reader';
    expect(parse({ senderEmail: 'a@example.com', leadsReaderRoleArn: role }).leadsReaderRoleArn).toBe(role);
    expect(problemsOf({ senderEmail: 'a@example.com', leadsReaderRoleArn: 'arn:aws:iam::111111111111:user/me' })).toBe(
      'leadsReaderRoleArn "arn:aws:iam::111111111111:user/me" is not an IAM role ARN, e.g. -c leadsReaderRoleArn=arn:aws:iam::123456789012:role/leads-reader.',
    );
  });

  test("takes the author's address, and has none unless given", () => {
    expect(parse({ senderEmail: 'a@example.com', authorEmail: ' author@example.com ' }).authorEmail).toBe(
      'author@example.com',
    );
    expect(parse({ senderEmail: 'a@example.com' })).not.toHaveProperty('authorEmail');
    expect(problemsOf({ senderEmail: 'a@example.com', authorEmail: 'author' })).toContain(
      'authorEmail "author" is not an e-mail address',
    );
  });
});

describe('mailProvider, mailProviderList and webhookUrl', () => {
  const sender = { senderEmail: 'a@example.com' };

  test('none by default: no lead is handed anywhere', () => {
    expect(parse(sender)).not.toHaveProperty('mailProvider');
  });

  test.each(['kit', 'mailerlite', 'mailchimp'] as const)('%s takes its list', (provider) => {
    expect(parse({ ...sender, mailProvider: provider, mailProviderList: '1234567' }).mailProvider).toEqual({
      provider,
      list: '1234567',
    });
  });

  test('the webhook takes its https address', () => {
    expect(
      parse({ ...sender, mailProvider: 'Webhook', webhookUrl: 'https://hooks.example.com/leads' }).mailProvider,
    ).toEqual({ provider: 'webhook', webhookUrl: 'https://hooks.example.com/leads' });
  });

  test('double opt-in is on unless mailProviderDoubleOptIn=false turns it off, and needs a provider', () => {
    const kit = { ...sender, mailProvider: 'kit', mailProviderList: '1234567' };
    expect(parse(kit).mailProvider).not.toHaveProperty('doubleOptIn');
    expect(parse({ ...kit, mailProviderDoubleOptIn: 'false' }).mailProvider).toEqual({
      provider: 'kit',
      list: '1234567',
      doubleOptIn: false,
    });
    expect(problemsOf({ ...sender, mailProviderDoubleOptIn: false })).toContain(
      'mailProviderDoubleOptIn needs mailProvider',
    );
  });

  test('a provider without its list, or the webhook without its address, is refused with what to pass', () => {
    expect(problemsOf({ ...sender, mailProvider: 'kit' })).toContain(
      'mailProvider kit needs mailProviderList: the form id',
    );
    expect(problemsOf({ ...sender, mailProvider: 'webhook' })).toContain('mailProvider webhook needs webhookUrl');
  });

  test('an unknown provider, a plain-http webhook and a list without a provider are refused', () => {
    expect(problemsOf({ ...sender, mailProvider: 'sendgrid' })).toContain(
      'mailProvider "sendgrid" is none of kit, mailerlite, mailchimp, webhook',
    );
    expect(problemsOf({ ...sender, mailProvider: 'webhook', webhookUrl: 'http://hooks.example.com' })).toContain(
      'webhookUrl "http://hooks.example.com" must be an https address',
    );
    expect(problemsOf({ ...sender, mailProviderList: '1234567' })).toContain('mailProviderList needs mailProvider');
  });
});
