import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { CatalogueFunction as CatalogueEntry, FunctionEnvironment } from '../../core/api/catalogue/function-entry';
import { functionList } from '../../core/api/catalogue/functions';
import { sendCheatSheetVariables } from '../../core/config/function-environment';
import { leadDigestVariables } from '../../lambdas/lead-digest/lead-digest';
import { pauseSendingVariables } from '../../lambdas/pause-sending/pause-sending';
import { canaryVariables } from '../../lambdas/canary/canary-run';
import { CatalogueFunction } from './catalogue-function';
import { addTrigger, type TriggerResource } from './function-triggers';

export interface EventFunctionsProps {
  /** The requests table and the counters' table (the suppressed mailboxes and the funnel's day counts live there). */
  readonly requestsTable: ITable;
  readonly limitCountersTable: ITable;
  /** The From address and its identity, for a function granted `emailSend`. */
  readonly senderEmail: string;
  readonly senderIdentityArn: string;
  /** The product's configuration set: the SES events' rule matches its events only; `sendingPause` pauses it. */
  readonly configurationSetName: string;
  readonly configurationSetArn: string;
  /** The topic every alarm notifies, and the alarms whose ALARM pauses sending. */
  readonly alarmTopic: ITopic;
  readonly pauseOnAlarms: readonly IAlarm[];
  /**
   * Where the weekly digest goes (`authorEmail`); an entry `onlyWith: 'authorEmail'` is built only with it.
   *
   * @default - no digest
   */
  readonly authorEmail?: string;
  /**
   * The site's public address the canary checks (the stage's siteUrl, else the distribution's); an
   * entry `offWith: 'canary'` is built only with it.
   *
   * @default - no canary
   */
  readonly canarySiteUrl?: string;
  /** The deployment's secret (the origin secret): the SES events function keys the suppression entries with it. */
  readonly originSecret: ISecret;
  /** The leads' key (infra/constructs/leads-key.ts): the log groups are encrypted with it. */
  readonly encryptionKey: IKey;
  /** @default logRetention of infra/constructs/encrypted-log-group.ts: a year */
  readonly logRetention?: RetentionDays;
  /** @default process.cwd() */
  readonly projectRoot?: string;
  /** @default each entry's `entry` under projectRoot */
  readonly entryPaths?: Readonly<Partial<Record<string, string>>>;
  /**
   * The functions no route invokes: the catalogue's, unless a test passes a copy of it.
   *
   * @default every entry of core/api/catalogue/functions.ts whose trigger is not a route
   */
  readonly functions?: readonly CatalogueEntry[];
}

/** One function no route invokes, as built, with what invokes it. */
export interface EventFunction {
  readonly built: CatalogueFunction;
  readonly trigger: TriggerResource;
}

/**
 * Every function no route invokes, each from its catalogue entry (core/api/catalogue/functions.ts):
 * built by `CatalogueFunction`, invoked by its schedule, event pattern or the alarm topic
 * (function-triggers.ts). Today: the SES events function and the unsent check (what happens to a
 * request after SES accepted it, and what was never sent), the weekly digest (only with
 * `authorEmail`), and the pause function, which stops sending when the configuration set's bounce
 * or complaint alarm fires.
 */
export class EventFunctions extends Construct {
  /** Each built function, by its name in the catalogue. */
  public readonly byName: Readonly<Partial<Record<string, EventFunction>>>;
  /** Every built function, in the catalogue's order. */
  public readonly list: readonly EventFunction[];

  constructor(scope: Construct, id: string, props: EventFunctionsProps) {
    super(scope, id);
    const alarmNames = props.pauseOnAlarms.map((alarm) => alarm.alarmName);
    const environments: Readonly<Partial<Record<FunctionEnvironment, Readonly<Record<string, string>>>>> = {
      none: {},
      deliveryTracking: {
        [sendCheatSheetVariables.tableName]: props.requestsTable.tableName,
        [sendCheatSheetVariables.limitCountersTableName]: props.limitCountersTable.tableName,
      },
      // The SES events function keys the suppression entries with the deployment's secret, as the routes do.
      deliveryEvents: {
        [sendCheatSheetVariables.tableName]: props.requestsTable.tableName,
        [sendCheatSheetVariables.limitCountersTableName]: props.limitCountersTable.tableName,
        [sendCheatSheetVariables.originSecretArn]: props.originSecret.secretArn,
      },
      sendingPause: {
        [pauseSendingVariables.configurationSetName]: props.configurationSetName,
        [pauseSendingVariables.pauseOnAlarms]: alarmNames.join(','),
      },
      // The canary marks its requests with a key of the deployment's secret, and reads its own.
      ...(props.canarySiteUrl !== undefined && {
        canary: {
          [canaryVariables.siteUrl]: props.canarySiteUrl,
          [canaryVariables.tableName]: props.requestsTable.tableName,
          [sendCheatSheetVariables.originSecretArn]: props.originSecret.secretArn,
        },
      }),
      ...(props.authorEmail !== undefined && {
        leadDigest: {
          [leadDigestVariables.tableName]: props.requestsTable.tableName,
          // The funnel's day counts (core/data/funnel.ts), this week against the last.
          [leadDigestVariables.limitCountersTableName]: props.limitCountersTable.tableName,
          [leadDigestVariables.senderEmail]: props.senderEmail,
          [leadDigestVariables.authorEmail]: props.authorEmail,
          [leadDigestVariables.configurationSetName]: props.configurationSetName,
        },
      }),
    };
    const resources = {
      tables: { requests: props.requestsTable, limitCounters: props.limitCountersTable },
      originSecret: props.originSecret,
      senderIdentityArn: props.senderIdentityArn,
      configurationSetArn: props.configurationSetArn,
    };
    // Not the routes (the Api's), nor a function reading a queue (built by the construct that owns its queue).
    const entries = (props.functions ?? functionList).filter(
      (fn) =>
        fn.trigger.kind !== 'http' &&
        fn.trigger.kind !== 'queue' &&
        !(fn.onlyWith === 'authorEmail' && props.authorEmail === undefined) &&
        !(fn.offWith === 'canary' && props.canarySiteUrl === undefined),
    );
    this.list = entries.map((fn) => {
      const environment = environments[fn.environment];
      if (!environment) throw new Error(`${fn.id}: no function no route invokes takes the ${fn.environment} variables`);
      const built = new CatalogueFunction(this, fn.id, {
        fn,
        resources,
        environment,
        encryptionKey: props.encryptionKey,
        logRetention: props.logRetention,
        projectRoot: props.projectRoot,
        entryPath: props.entryPaths?.[fn.name],
      });
      const trigger = addTrigger(built, {
        configurationSetName: props.configurationSetName,
        alarmTopic: props.alarmTopic,
        alarmNames: { sendingPause: alarmNames },
      });
      return { built, trigger };
    });
    this.byName = Object.fromEntries(this.list.map((fn) => [fn.built.entry.name, fn]));
  }
}
