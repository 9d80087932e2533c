import { FileSystem } from 'aws-cdk-lib';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { hashedAssetsCacheControl, hashedAssetsPrefix, pagesCacheControl } from '../cache-policy';
import { acknowledgeBucketDeployment, bucketDeploymentHandlerSettings } from './bucket-deployment-handler';
import { DistributionInvalidation } from './distribution-invalidation';

export interface SiteFilesProps {
  /** The built site (`npm run build:site`). */
  readonly siteDirectory: string;
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** The leads' key (infra/constructs/leads-key.ts): the deployment and invalidation handlers' logs. */
  readonly encryptionKey: IKey;
}

/** The built files in the bucket: hashed assets first, then the pages, then the invalidation. */
export interface SiteFiles {
  /** Copies `assets/**` with long, immutable caching; runs first. */
  readonly hashedAssetsDeployment: BucketDeployment;
  /** Copies everything else with no-cache, after the assets. */
  readonly pagesDeployment: BucketDeployment;
  /** Invalidates the whole distribution after the pages are in the bucket. */
  readonly invalidation: DistributionInvalidation;
}

/**
 * Deploys the built site to its bucket in the Site construct's scope (so the logical ids are the
 * Site's): the caching each kind of file gets is infra/cache-policy.ts's, which the local server
 * follows too.
 */
export function deploySiteFiles(scope: Construct, props: SiteFilesProps): SiteFiles {
  // One asset, two deployments: the same files, split by path, with different caching.
  const siteFiles = Source.asset(props.siteDirectory);
  const deploymentSettings = {
    // The site has more files than a custom resource's 4 KB reply can list; nothing reads them.
    outputObjectKeys: false,
    ...bucketDeploymentHandlerSettings(scope, props.encryptionKey),
  };
  const hashedAssetsDeployment = new BucketDeployment(scope, 'HashedAssetsDeployment', {
    sources: [siteFiles],
    destinationBucket: props.bucket,
    exclude: ['*'],
    include: [`${hashedAssetsPrefix}*`],
    // infra/cache-policy.ts, which the local server follows too.
    cacheControl: [CacheControl.fromString(hashedAssetsCacheControl)],
    // Old hashed files stay, so a page loaded just before a deployment can still fetch its
    // scripts; the bucket's lifecycle rule only expires overwritten versions.
    prune: false,
    ...deploymentSettings,
  });
  const pagesDeployment = new BucketDeployment(scope, 'PagesDeployment', {
    sources: [siteFiles],
    destinationBucket: props.bucket,
    exclude: [`${hashedAssetsPrefix}*`],
    cacheControl: [CacheControl.fromString(pagesCacheControl)],
    // No `distribution` here: BucketDeployment would grant its handler cloudfront:*Invalidation
    // on `*`. The invalidation below may touch this distribution alone.
    ...deploymentSettings,
  });
  // New pages must never reference assets that are not uploaded yet.
  pagesDeployment.node.addDependency(hashedAssetsDeployment);
  // Nothing is written to the buckets until the distribution exists: when CloudFront refuses it
  // (an account not yet verified, say), the rollback finds the buckets it created empty and
  // deletes them, instead of ending in ROLLBACK_FAILED on a bucket that is not empty.
  hashedAssetsDeployment.node.addDependency(props.distribution);
  acknowledgeBucketDeployment(hashedAssetsDeployment, props.bucket);
  acknowledgeBucketDeployment(pagesDeployment, props.bucket);

  const invalidation = new DistributionInvalidation(scope, 'Invalidation', {
    distribution: props.distribution,
    encryptionKey: props.encryptionKey,
    // The same digest as the site asset's hash: a new build invalidates, an unchanged one does not.
    contentFingerprint: FileSystem.fingerprint(props.siteDirectory),
  });
  invalidation.node.addDependency(pagesDeployment);
  return { hashedAssetsDeployment, pagesDeployment, invalidation };
}
