/**
 * With a custom domain: the certificate CloudFront will serve (ACM DescribeCertificate in
 * us-east-1, the only region CloudFront reads), in the stack's account, issued, and covering the
 * host name, a wildcard covering one label.
 */

import { DescribeCertificateCommand, type ACMClient } from '@aws-sdk/client-acm';
import { cloudFrontRegion } from './aws-clients';
import { describeError, isNotFound } from './aws-errors';
import type { CheckResult } from './check-result';

/** `www.example.com` is covered by itself and by `*.example.com`, not by `*.www.example.com` or `example.com`. */
export function certificateCovers(certificateNames: readonly string[], hostName: string): boolean {
  const host = hostName.toLowerCase();
  const parent = host.slice(host.indexOf('.') + 1);
  return certificateNames.some((entry) => {
    const pattern = entry.toLowerCase();
    return pattern === host || (pattern.startsWith('*.') && host.includes('.') && pattern.slice(2) === parent);
  });
}

export async function checkCertificate(
  acm: ACMClient,
  { account, domainName, certificateArn }: { account: string; domainName: string; certificateArn: string },
): Promise<CheckResult> {
  const name = 'certificate';
  const request = `aws acm request-certificate --region ${cloudFrontRegion} --domain-name ${domainName} --validation-method DNS`;
  const [, , , arnRegion, arnAccount] = certificateArn.split(':');
  if (arnRegion !== cloudFrontRegion) {
    return {
      name,
      status: 'FAIL',
      detail: `${certificateArn} is in ${arnRegion ?? 'no region'}: CloudFront only uses certificates from ${cloudFrontRegion}`,
      fix: `${request}, then pass its ARN as -c certificateArn=….`,
    };
  }
  if (arnAccount !== account) {
    return {
      name,
      status: 'FAIL',
      detail: `${certificateArn} belongs to account ${arnAccount}, the stack deploys to ${account}`,
      fix: `${request} in account ${account}.`,
    };
  }

  let certificate;
  try {
    certificate = (await acm.send(new DescribeCertificateCommand({ CertificateArn: certificateArn }))).Certificate;
  } catch (error) {
    if (isNotFound(error)) {
      return { name, status: 'FAIL', detail: `${certificateArn} does not exist`, fix: `${request}.` };
    }
    return { name, status: 'WARN', detail: `could not read ${certificateArn}: ${describeError(error)}` };
  }
  const status = certificate?.Status ?? 'unknown';
  if (status !== 'ISSUED') {
    return {
      name,
      status: 'FAIL',
      detail: `${certificateArn} is ${status}, not ISSUED`,
      fix:
        status === 'PENDING_VALIDATION'
          ? 'publish the DNS validation CNAME records ACM shows for it, and wait for ISSUED.'
          : `${request}.`,
    };
  }
  const names = [...new Set([certificate?.DomainName, ...(certificate?.SubjectAlternativeNames ?? [])])].filter(
    (entry): entry is string => entry !== undefined,
  );
  if (!certificateCovers(names, domainName)) {
    return {
      name,
      status: 'FAIL',
      detail: `${certificateArn} covers ${names.join(', ') || 'no name'}, not ${domainName}`,
      fix: `${request}.`,
    };
  }
  return { name, status: 'PASS', detail: `issued in ${cloudFrontRegion} and covers ${domainName}` };
}
