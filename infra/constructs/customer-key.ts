import { AnyPrincipal, Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, type KeyProps } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';

/**
 * What every customer managed key of the app has, written once: yearly rotation (Control Tower's
 * CT.KMS.PR.1; about 1 USD a month more for each of the first two rotations, AWS's list price).
 * A key's construct states only what differs: its description, removal policy and own policy.
 */
export const customerKeyDefaults = { enableKeyRotation: true } as const satisfies Partial<KeyProps>;

/**
 * The statement every customer managed key's policy carries: no one may create a KMS grant on it
 * except AWS services acting for an AWS resource (Control Tower's CT.KMS.PR.3). Nothing in the
 * app hands out a grant of its own; DynamoDB's grants for the tables and the other services'
 * are of the allowed kind.
 */
export function grantsOnlyForAwsResources(): PolicyStatement {
  return new PolicyStatement({
    sid: 'GrantsOnlyForAwsResources',
    effect: Effect.DENY,
    principals: [new AnyPrincipal()],
    actions: ['kms:CreateGrant'],
    resources: ['*'],
    conditions: {
      BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' },
    },
  });
}

/**
 * A customer managed key with the defaults and statements every key of the app shares
 * (customerKeyDefaults, grantsOnlyForAwsResources); `props` says what this key does differently.
 */
export function customerKey(scope: Construct, id: string, props: KeyProps): Key {
  const key = new Key(scope, id, { ...customerKeyDefaults, ...props });
  key.addToResourcePolicy(grantsOnlyForAwsResources());
  return key;
}
