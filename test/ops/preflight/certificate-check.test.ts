import { ACMClient, DescribeCertificateCommand, ResourceNotFoundException } from '@aws-sdk/client-acm';
import { mockClient } from 'aws-sdk-client-mock';
import { certificateCovers, checkCertificate } from '../../../ops/preflight/certificate-check';

const acm = new ACMClient({ region: 'us-east-1' });
const acmMock = mockClient(acm);
const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0f2c5b8e-1234-4d6e-9abc-0123456789ab';
const input = { account: '123456789012', domainName: 'www.example.com', certificateArn };

const certificate = (Status: 'ISSUED' | 'PENDING_VALIDATION', names: string[]) =>
  acmMock.on(DescribeCertificateCommand, { CertificateArn: certificateArn }).resolves({
    Certificate: { CertificateArn: certificateArn, Status, DomainName: names[0], SubjectAlternativeNames: names },
  });

beforeEach(() => acmMock.reset());

describe('a certificate covers a host name', () => {
  test('when it names the host', () => {
    expect(certificateCovers(['www.example.com'], 'www.example.com')).toBe(true);
  });

  test('when a wildcard names its parent domain', () => {
    expect(certificateCovers(['example.com', '*.example.com'], 'www.example.com')).toBe(true);
  });

  test('not when the wildcard is one level deeper or shallower', () => {
    expect(certificateCovers(['*.www.example.com', '*.com'], 'www.example.com')).toBe(false);
  });
});

describe('the certificate check', () => {
  test('passes an issued certificate that covers the name', async () => {
    certificate('ISSUED', ['example.com', '*.example.com']);
    expect((await checkCertificate(acm, input)).status).toBe('PASS');
  });

  test('fails a certificate outside us-east-1 without asking ACM', async () => {
    const result = await checkCertificate(acm, {
      ...input,
      certificateArn: certificateArn.replace('us-east-1', 'eu-west-1'),
    });
    expect(result).toMatchObject({
      status: 'FAIL',
      detail: expect.stringContaining('only uses certificates from us-east-1'),
    });
    expect(acmMock.calls()).toHaveLength(0);
  });

  test("fails a certificate of another account than the stack's", async () => {
    expect((await checkCertificate(acm, { ...input, account: '999999999999' })).status).toBe('FAIL');
  });

  test('fails a certificate not yet issued', async () => {
    certificate('PENDING_VALIDATION', ['www.example.com']);
    expect(await checkCertificate(acm, input)).toMatchObject({
      status: 'FAIL',
      detail: expect.stringContaining('PENDING_VALIDATION'),
    });
  });

  test('fails a certificate that does not cover the name, naming what it covers', async () => {
    certificate('ISSUED', ['shop.example.com']);
    expect((await checkCertificate(acm, input)).detail).toContain('covers shop.example.com, not www.example.com');
  });

  test('fails a certificate that does not exist', async () => {
    acmMock.on(DescribeCertificateCommand).rejects(new ResourceNotFoundException({ message: 'none', $metadata: {} }));
    expect((await checkCertificate(acm, input)).status).toBe('FAIL');
  });
});
