/**
 * The SES events function's configuration: the contract's table variables, each defaulting to the
 * table's fixed name (the local twin's), and the deployment's secret, which keys the suppression
 * entries' ids (`ORIGIN_SECRET_ARN` behind CloudFront, `CLIENT_ADDRESS_KEY` locally: the same
 * variables as the routes'). Without a secret the function cannot suppress: a bounce or a
 * complaint then fails (misconfigured), and Lambda's retries and the on-failure queue keep it.
 */

import { sendCheatSheetVariables } from '../../core/config/function-environment';
import { limitCountersTableName, tableName } from '../../core/data/tables';
import { readDeploymentSecret, type DeploymentSecret } from '../runtime/config';
import { ProductError } from '../runtime/errors';

export interface SesEventsConfig {
  readonly tableName: string;
  readonly limitCountersTableName: string;
  /** Read only when a mailbox is suppressed: a delivery event never needs it. */
  readonly deploymentSecret: () => DeploymentSecret;
}

export function readSesEventsConfig(env: Readonly<Record<string, string | undefined>>): SesEventsConfig {
  return {
    tableName: env[sendCheatSheetVariables.tableName]?.trim() || tableName,
    limitCountersTableName: env[sendCheatSheetVariables.limitCountersTableName]?.trim() || limitCountersTableName,
    deploymentSecret: () => {
      const secret = readDeploymentSecret(env);
      if (!secret) {
        throw new ProductError(
          'misconfigured',
          `Neither ${sendCheatSheetVariables.originSecretArn} nor ${sendCheatSheetVariables.clientAddressKey} is set: no suppression can be keyed`,
        );
      }
      return secret;
    },
  };
}
