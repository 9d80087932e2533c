/**
 * Regions whose S3 buckets CloudFront does not deliver standard (legacy) logs to: the opt-in
 * regions (CloudFront Developer Guide, "Standard logging (legacy)", choosing an S3 bucket). The
 * stack's distribution logs to a bucket in the stack's own region, so the stack cannot be
 * created in any of them. ap-east-2 and ap-southeast-6 are opt-in regions opened after that list
 * was last read; the rule is the same for every opt-in region.
 */
export const regionsWithoutCloudFrontLogs: ReadonlySet<string> = new Set([
  'af-south-1',
  'ap-east-1',
  'ap-east-2',
  'ap-south-2',
  'ap-southeast-3',
  'ap-southeast-4',
  'ap-southeast-5',
  'ap-southeast-6',
  'ap-southeast-7',
  'ca-west-1',
  'eu-central-2',
  'eu-south-1',
  'eu-south-2',
  'il-central-1',
  'me-central-1',
  'me-south-1',
  'mx-central-1',
]);
