/**
 * The two headers that carry the visitor's address from CloudFront to the API (README, 'Limits
 * and abuse'): the CDK stack makes CloudFront send them, the send function reads them. Header
 * names as API Gateway passes them to a function: lower case.
 */

/** Added by CloudFront (origin request policy): the viewer's `IP:port` as CloudFront saw it. */
export const viewerAddressHeader = 'cloudfront-viewer-address';

/**
 * An origin custom header holding a secret generated at deployment: a request carrying it came
 * through this stack's distribution, so its viewer address was set by CloudFront. (CloudFront
 * refuses custom header names beginning with `X-Amz-` or `X-Edge-`.)
 */
export const originSecretHeader = 'x-origin-secret';
