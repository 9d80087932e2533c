import { AccountRootPrincipal, AnyPrincipal, Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
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
 * What the account may do with the key without reading what it encrypts: administer it (describe, enable,
 * disable, rotate, tag, change its policy, schedule its deletion), never encrypt, decrypt or grant.
 * `kms:PutKeyPolicy` stays, so the key is never unmanageable; using it to add a reader is a
 * CloudTrail event an auditor sees.
 */
export const keyAdministrationActions = [
  'kms:CancelKeyDeletion',
  'kms:CreateAlias',
  'kms:DeleteAlias',
  'kms:DescribeKey',
  'kms:DisableKey',
  'kms:DisableKeyRotation',
  'kms:EnableKey',
  'kms:EnableKeyRotation',
  'kms:GetKeyPolicy',
  'kms:GetKeyRotationStatus',
  'kms:ListAliases',
  'kms:ListGrants',
  'kms:ListKeyPolicies',
  'kms:ListResourceTags',
  'kms:PutKeyPolicy',
  'kms:RetireGrant',
  'kms:RevokeGrant',
  'kms:RotateKeyOnDemand',
  'kms:ScheduleKeyDeletion',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:UpdateAlias',
  'kms:UpdateKeyDescription',
] as const;

/**
 * The account's statement of a key whose data only named principals read: it administers the key
 * (keyAdministrationActions), never encrypts or decrypts with it. Given as a key's policy, it
 * replaces CDK's default, whose `kms:*` for the account root lets every IAM principal allowed
 * kms:Decrypt by its own policies use the key.
 */
export function accountAdministersTheKey(): PolicyStatement {
  return new PolicyStatement({
    sid: 'AccountAdministersTheKeyButCannotUseIt',
    principals: [new AccountRootPrincipal()],
    actions: [...keyAdministrationActions],
    resources: ['*'],
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
