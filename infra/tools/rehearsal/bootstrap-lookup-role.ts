/**
 * CDK's bootstrap lookup role, `cdk-<qualifier>-lookup-role-<account>-<region>`: the role the deploy
 * workflow's preflight and smoke test run as (docs/deploy.md, 'Which role does what'). No template
 * of the app holds it; the bootstrap stack gives it AWS's managed `ReadOnlyAccess` and one inline
 * statement, `DontReadSecrets`, denying `kms:Decrypt` (aws-cdk's bootstrap template). The inline
 * Deny is copied here as the bootstrap writes it. `ReadOnlyAccess` is AWS's and in no template:
 * it stands here, for the services the smoke test and the preflight call, as the patterns AWS's
 * own read-only policies for them grant, which ReadOnlyAccess grants them too:
 * AWSCloudFormationReadOnlyAccess (`cloudformation:Describe*`, `Get*`, `List*`) and
 * AmazonSESReadOnlyAccess (`ses:Get*`, `List*`) for both; for the preflight alone
 * AmazonSSMReadOnlyAccess's `ssm:Get*` (the bootstrap version's GetParameter),
 * AWSCertificateManagerReadOnly's `acm:DescribeCertificate` (with a custom domain),
 * AWSLambda_ReadOnlyAccess's `lambda:Get*` (GetAccountSettings) and AmazonDynamoDBReadOnlyAccess's
 * `dynamodb:Describe*` (DescribeTable of the leftover tables) , and
 * ReadOnlyAccess's own `kms:Describe*`, here `kms:DescribeKey` (a leftover table's key: is its
 * deletion scheduled?). STS GetCallerIdentity needs no
 * permission. A call to any other action is refused, so a new one is judged only once it is added
 * here.
 */
import type { Policy } from './policies';

/** CDK's default bootstrap qualifier, which the deploy workflow's role names use. */
export const bootstrapQualifier = 'hnb659fds';

/** The bootstrap template's inline policy of the lookup role. */
export const lookupRoleInlinePolicy: Policy = {
  Version: '2012-10-17',
  Statement: [{ Sid: 'DontReadSecrets', Effect: 'Deny', Action: ['kms:Decrypt'], Resource: '*' }],
};

/** ReadOnlyAccess, for the actions the smoke test and the preflight call (see above). */
export const readOnlyAccessStandIn: Policy = {
  Version: '2012-10-17',
  Statement: [
    {
      Effect: 'Allow',
      Action: [
        'cloudformation:Describe*',
        'cloudformation:Get*',
        'cloudformation:List*',
        'ses:Get*',
        'ses:List*',
        'ssm:Get*',
        'acm:DescribeCertificate',
        'lambda:Get*',
        'dynamodb:Describe*',
        'kms:DescribeKey',
      ],
      Resource: '*',
    },
  ],
};

/** The lookup role of an account and region, as the rehearsal signs for it and judges its calls. */
export function lookupRole(account: string, region: string) {
  const name = `cdk-${bootstrapQualifier}-lookup-role-${account}-${region}`;
  return {
    name: 'CDK lookup role',
    roleArn: `arn:aws:iam::${account}:role/${name}`,
    account,
    accessKeyId: name,
    policies: [
      { name: `${name}/ReadOnlyAccess (stand-in)`, policy: readOnlyAccessStandIn },
      { name: `${name}/LookupRolePolicy`, policy: lookupRoleInlinePolicy },
    ],
  };
}
