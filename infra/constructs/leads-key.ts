import { DefaultStackSynthesizer, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccountRootPrincipal,
  ArnPrincipal,
  PolicyDocument,
  PolicyStatement,
  type IPrincipal,
  type IRole,
} from 'aws-cdk-lib/aws-iam';
import type { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { customerKey } from './customer-key';

/**
 * What the account may do with the key without reading a lead: administer it (describe, enable,
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

/** What reading and writing an encrypted table takes, through DynamoDB. */
export const tableUseActions = [
  'kms:Decrypt',
  'kms:DescribeKey',
  'kms:Encrypt',
  'kms:GenerateDataKey*',
  'kms:ReEncrypt*',
] as const;

export interface LeadsKeyProps {
  /**
   * The one role besides the functions that may read the leads (`leadsReaderRoleArn`): the role
   * the author or operator assumes for `npm run leads -- export` and `erase`.
   *
   * @default - none: only the functions read the leads
   */
  readonly readerRoleArn?: string;
  /**
   * The role that creates and updates the tables (DynamoDB checks the key with its credentials).
   *
   * @default - CloudFormation's execution role of the stack's synthesizer (CDK's bootstrap
   * `cdk-<qualifier>-cfn-exec-role-<account>-<region>`, which only CloudFormation can assume)
   */
  readonly deployerRoleArn?: string;
}

/**
 * The leads' own customer managed key: both tables (requests and limit counters) are encrypted
 * with it, and its policy, not IAM, answers "who can read the leads". Only these may use it, and
 * only through DynamoDB in this region (`kms:ViaService`):
 *
 * - the functions' roles that read or write the tables (allowTableUse);
 * - the `leadsReaderRoleArn` role, if given;
 * - CloudFormation's execution role, which creates and updates the tables (only CloudFormation can
 *   assume it).
 *
 * The account keeps the key's administration (keyAdministrationActions) but no data action: unlike
 * the AWS managed key aws/dynamodb, whose policy lets every principal of the account that may call
 * DynamoDB decrypt, a role with AWS's `ReadOnlyAccess` (CDK's lookup role among them) can scan the
 * table and gets AccessDenied from KMS. No grant can be created but by AWS services for a resource,
 * as on every key of the app (customer-key.ts); DynamoDB's own grants for the tables are of that kind.
 *
 * Kept when the stack is deleted or the key replaced (RetainExceptOnCreate, as the stack's other
 * stateful resources): a table whose key is gone can never be read again. Removed (KMS schedules its
 * deletion) when the create that made it rolls back: its policy would name roles that no longer
 * exist, so no retry could use it; the tables that create made are empty, and the preflight names
 * the orphaned key and the commands that clear them (docs/deploy.md, the retry).
 *
 * Cost, at AWS's list prices: 1 USD a month, plus 1 USD a month for each of its first two yearly
 * rotations; DynamoDB caches the table key per caller for 5 minutes, so a book page's traffic stays
 * within KMS's 20,000 free requests a month.
 */
export class LeadsKey extends Construct {
  public readonly key: Key;
  /** The service DynamoDB calls KMS through in this region: the condition on every use. */
  public readonly viaService: string;
  private tableUse?: PolicyStatement;

  constructor(scope: Construct, id: string, props: LeadsKeyProps = {}) {
    super(scope, id);
    const stack = Stack.of(this);
    this.viaService = `dynamodb.${stack.region}.amazonaws.com`;

    this.key = customerKey(this, 'Key', {
      description: "First 100 Days site: the leads' tables (requests and limit counters). Read only by the functions.",
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      // Given, this policy replaces CDK's default one, whose `kms:*` for the account root lets every
      // IAM principal allowed kms:Decrypt by its own policies use the key.
      policy: new PolicyDocument({
        statements: [
          new PolicyStatement({
            sid: 'AccountAdministersTheKeyButCannotUseIt',
            principals: [new AccountRootPrincipal()],
            actions: [...keyAdministrationActions],
            resources: ['*'],
          }),
        ],
      }),
    });

    const deployer = props.deployerRoleArn ?? cloudFormationExecutionRoleArn(stack);
    this.key.addToResourcePolicy(
      this.throughDynamoDb('TablesCreatedByCloudFormation', [new ArnPrincipal(deployer)], true),
    );
    if (props.readerRoleArn) {
      this.key.addToResourcePolicy(this.throughDynamoDb('LeadsReader', [new ArnPrincipal(props.readerRoleArn)]));
    }
  }

  /** Lets a function's role read and write the tables, through DynamoDB only. */
  public allowTableUse(role: IRole): void {
    if (!this.tableUse) {
      this.tableUse = this.throughDynamoDb('FunctionsReadAndWriteTheTables', []);
      this.key.addToResourcePolicy(this.tableUse);
    }
    this.tableUse.addPrincipals(role.grantPrincipal);
  }

  private throughDynamoDb(sid: string, principals: IPrincipal[], mayCreateGrants = false): PolicyStatement {
    return new PolicyStatement({
      sid,
      principals,
      // DynamoDB creates its own grant on the key when CloudFormation creates or re-keys a table.
      actions: [...tableUseActions, ...(mayCreateGrants ? ['kms:CreateGrant'] : [])],
      resources: ['*'],
      conditions: {
        StringEquals: { 'kms:ViaService': this.viaService, 'kms:CallerAccount': Stack.of(this).account },
      },
    });
  }
}

/** The role CloudFormation deploys the stack with: the default synthesizer's bootstrap role. */
function cloudFormationExecutionRoleArn(stack: Stack): string {
  const synthesizer = stack.synthesizer;
  // The synthesizer's ARN holds ${AWS::Partition}, ${AWS::AccountId} and ${AWS::Region}: Fn::Sub fills them in.
  if (synthesizer instanceof DefaultStackSynthesizer) return Fn.sub(synthesizer.cloudFormationExecutionRoleArn);
  throw new Error('LeadsKey needs deployerRoleArn when the stack does not use the default synthesizer.');
}
