import { ConfigError, defaultApiThrottle, defaultDailySendCap, parseDeploymentConfig } from '../../infra/config';
import { defaultDailyLimit } from '../../lambdas/shared/config';

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
  it('needs only senderEmail, and fills in the documented defaults', () => {
    expect(parse({ senderEmail: 'cheatsheet@example.com' })).toEqual({
      senderEmail: 'cheatsheet@example.com',
      apiThrottle: { rateLimit: defaultApiThrottle.rateLimit, burstLimit: defaultApiThrottle.burstLimit },
      dailySendCap: defaultDailySendCap,
    });
  });

  it("deploys the send function's own default cap when none is given", () => {
    expect(parse({ senderEmail: 'cheatsheet@example.com' }).dailySendCap).toBe(defaultDailyLimit);
  });

  it('refuses a missing senderEmail and says exactly what to pass', () => {
    const message = problemsOf({});
    expect(message).toContain('senderEmail is missing');
    expect(message).toContain('-c senderEmail=you@yourdomain.com');
  });

  it('treats an empty senderEmail (-c senderEmail=) as missing', () => {
    expect(problemsOf({ senderEmail: '  ' })).toContain('senderEmail is missing');
  });

  it.each(['cheatsheet', 'cheatsheet@', '@example.com', 'cheat sheet@example.com', 'a@b', 'a@@b.com'])(
    'refuses the malformed senderEmail %p and says what to pass',
    (senderEmail) => {
      const message = problemsOf({ senderEmail });
      expect(message).toContain(`senderEmail "${senderEmail.trim()}" is not an e-mail address`);
      expect(message).toContain('-c senderEmail=you@yourdomain.com');
    },
  );

  it('takes senderDomain when the sender address is at that domain', () => {
    expect(parse({ senderEmail: 'cheatsheet@Example.com', senderDomain: 'EXAMPLE.com' })).toMatchObject({
      senderEmail: 'cheatsheet@Example.com',
      senderDomain: 'example.com',
    });
  });

  it('refuses a senderDomain the sender address is not at', () => {
    expect(problemsOf({ senderEmail: 'cheatsheet@example.com', senderDomain: 'example.org' })).toContain(
      'is not at senderDomain "example.org"',
    );
  });

  it('refuses a senderDomain that is not a domain name', () => {
    expect(problemsOf({ senderEmail: 'a@example.com', senderDomain: 'not a domain' })).toContain(
      'senderDomain "not a domain" is not a domain name',
    );
  });

  it('takes a custom domain with its us-east-1 certificate', () => {
    expect(parse({ senderEmail: 'a@example.com', domainName: 'www.example.com', certificateArn }).customDomain).toEqual(
      { domainName: 'www.example.com', certificateArn },
    );
  });

  it('refuses a domain name without a certificate, and a certificate without a domain name', () => {
    expect(problemsOf({ senderEmail: 'a@example.com', domainName: 'www.example.com' })).toContain(
      'domainName and certificateArn go together',
    );
    expect(problemsOf({ senderEmail: 'a@example.com', certificateArn })).toContain(
      'domainName and certificateArn go together',
    );
  });

  it('refuses a certificate outside us-east-1, which CloudFront cannot use', () => {
    const euCertificate = certificateArn.replace('us-east-1', 'eu-west-1');
    expect(
      problemsOf({ senderEmail: 'a@example.com', domainName: 'www.example.com', certificateArn: euCertificate }),
    ).toContain('is not an ACM certificate ARN in us-east-1');
  });

  it('reads throttling and the daily cap from -c strings and from cdk.json numbers', () => {
    expect(
      parse({ senderEmail: 'a@example.com', apiRateLimit: '2.5', apiBurstLimit: 5, dailySendCap: '1' }),
    ).toMatchObject({ apiThrottle: { rateLimit: 2.5, burstLimit: 5 }, dailySendCap: 1 });
  });

  it.each([
    ['apiRateLimit', '0'],
    ['apiBurstLimit', '2.5'],
    ['dailySendCap', '-1'],
    ['dailySendCap', 'three'],
  ])('refuses %s=%p', (key, value) => {
    expect(problemsOf({ senderEmail: 'a@example.com', [key]: value })).toContain(
      `${key} "${value}" must be a positive`,
    );
  });

  it('lists every problem at once rather than one per attempt', () => {
    const message = problemsOf({ domainName: 'www.example.com', dailySendCap: '0' });
    expect(message).toContain('senderEmail is missing');
    expect(message).toContain('domainName and certificateArn go together');
    expect(message).toContain('dailySendCap "0" must be a positive whole number');
  });
});
