import { CfnOutput, Lazy, Stack, type StackProps } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import type { CatalogueFunction as CatalogueEntry } from '../core/api/catalogue/function-entry';
import { functionList } from '../core/api/catalogue/functions';
import { routesOf } from '../core/api/catalogue/routes';
import type { DeploymentConfig } from './config';
import { Api } from './constructs/api';
import { tableOperationsOf } from './constructs/table-operations';
import { Data } from './constructs/data';
import { EventFunctions } from './constructs/event-functions';
import { LeadHandoff } from './constructs/lead-handoff';
import { MailKeyAccess } from './constructs/mail-key-access';
import { SendQueue } from './constructs/send-queue';
import { LeadsAccess } from './constructs/leads-access';
import { LeadsKey } from './constructs/leads-key';
import { Mail, sesEventDimensionName } from './constructs/mail';
import { DeadLetterAccess } from './constructs/dead-letter-access';
import { FailedEvents } from './constructs/failed-events';
import { FlatRatePlan } from './constructs/flat-rate-plan';
import { Monitoring } from './constructs/monitoring/monitoring';
import { runbookBaseUrl } from './constructs/monitoring/runbook';
import { OriginSecret } from './constructs/origin-secret';
import { Site } from './constructs/site';
import { WebFirewall } from './constructs/web-firewall';
import { addStackOutputs } from './stack-outputs';

export interface CheatSheetSiteStackProps extends StackProps {
  /** The validated context (infra/config.ts). */
  readonly config: DeploymentConfig;
  /**
   * Where the build output is read from; tests pass small fixture folders.
   *
   * @default `frontend/dist` and `dist/cheat-sheet` under process.cwd()
   */
  readonly buildOutput?: { readonly siteDirectory?: string; readonly cheatSheetDirectory?: string };
  /**
   * Handler entry files other than the catalogue's, by the function's name in it.
   *
   * @default each function's `entry` (core/api/catalogue/functions.ts)
   */
  readonly handlerEntries?: Readonly<Partial<Record<string, string>>>;
  /**
   * The catalogue of functions: the real one, unless a test passes a copy of it (the recipes'
   * tests add a route or a scheduled function to one).
   *
   * @default every entry of core/api/catalogue/functions.ts
   */
  readonly functions?: readonly CatalogueEntry[];
  /**
   * With `config.waf`, the web ACL made by the companion stack in us-east-1 (infra/stacks.ts),
   * when this stack is in another region.
   *
   * @default - with `config.waf`, the web ACL is made in this stack, which must be in us-east-1
   */
  readonly webAclArn?: string;
}

/** The whole product in one stack. Wiring only: each concern lives in its construct. */
export class CheatSheetSiteStack extends Stack {
  /** The validated context it was built from (the compliance checks read it too). */
  public readonly config: DeploymentConfig;
  /**
   * The one customer managed KMS key, the leads': the tables, the log groups, the failed events'
   * queue and the alarm topics; its policy names who may read a lead. The buckets hold only public
   * content and use SSE-S3 (infra/constructs/private-bucket.ts).
   */
  public readonly leadsKey: LeadsKey;
  public readonly mail: Mail;
  public readonly data: Data;
  public readonly originSecret: OriginSecret;
  public readonly api: Api;
  public readonly site: Site;
  public readonly monitoring: Monitoring;
  /**
   * Every function no route invokes, from the catalogue: the pause function (when the configuration
   * set's bounce or complaint alarm fires), the SES events function, the unsent check and, only
   * with `config.authorEmail`, the weekly digest of new leads.
   */
  public readonly eventFunctions: EventFunctions;
  /** The dead-letter queue of the functions no route invokes: the pause, the SES events, the unsent check, the digest. */
  public readonly failedEvents: FailedEvents;
  /** Only with `pricingPlan=free`: CloudFront's flat-rate Free plan for the distribution and its web ACL. */
  public readonly flatRatePlan?: FlatRatePlan;
  /** The sends SES's rate had no slot for when the reader asked, and the sender that sends them at that rate. */
  public readonly sendQueue: SendQueue;
  /** Only with `config.mailProvider`: every consenting lead handed to the author's mail provider. */
  public readonly leadHandoff?: LeadHandoff;
  /** Only with `config.githubRepository`: the roles the leads workflows assume (reader, operator). */
  public readonly leadsAccess?: LeadsAccess;
  /** Only with `config.waf` in us-east-1 (elsewhere it lives in the companion stack). */
  public readonly webFirewall?: WebFirewall;

  constructor(scope: Construct, id: string, props: CheatSheetSiteStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.config = config;
    const functions = props.functions ?? functionList;
    // What this stage builds: an entry `onlyWith` a context value only when the value is given.
    const builtFunctions = functions.filter(
      (fn) =>
        (fn.onlyWith === undefined || config[fn.onlyWith] !== undefined) &&
        (fn.offWith === undefined || config[fn.offWith]),
    );

    this.leadsKey = new LeadsKey(this, 'LeadsKey', { readerRoleArn: config.leadsReaderRoleArn });
    const encryptionKey = this.leadsKey.key;
    this.mail = new Mail(this, 'Mail', {
      senderEmail: config.senderEmail,
      senderDomain: config.senderDomain,
      senderIdentityExists: config.senderIdentityExists,
      mailFromSubdomain: config.mailFromSubdomain,
    });
    this.data = new Data(this, 'Data', {
      encryptionKey,
      cheatSheetDirectory: props.buildOutput?.cheatSheetDirectory,
      requestRetentionDays: config.requestRetentionDays,
      requestsStream: config.mailProvider !== undefined,
    });
    this.originSecret = new OriginSecret(this, 'OriginSecret');
    this.sendQueue = new SendQueue(this, 'SendQueue', {
      table: this.data.table,
      emailIndexName: this.data.emailIndexName,
      limitCountersTable: this.data.limitCountersTable,
      cheatSheetBucket: this.data.cheatSheetBucket,
      cheatSheetKey: this.data.cheatSheetKey,
      cheatSheetVersion: this.data.cheatSheetVersion,
      senderEmail: this.mail.senderEmail,
      senderIdentityArn: this.mail.identityArn,
      configurationSetName: this.mail.configurationSetName,
      configurationSetArn: this.mail.configurationSetArn,
      encryptionKey,
      entry: props.handlerEntries?.queuedSend,
    });
    // It records each send on the request and takes its slot of SES's pace: the leads' key lets it.
    this.leadsKey.allowTableUse(this.sendQueue.role);
    this.sendQueue.function.node.addDependency(this.data.cheatSheetDeployment);
    this.api = new Api(this, 'Api', {
      sendQueue: this.sendQueue.queue,
      table: this.data.table,
      limitCountersTable: this.data.limitCountersTable,
      idempotencyTable: this.data.idempotencyTable,
      funnelVisitorsTable: this.data.funnelVisitorsTable,
      emailIndexName: this.data.emailIndexName,
      cheatSheetBucket: this.data.cheatSheetBucket,
      cheatSheetKey: this.data.cheatSheetKey,
      cheatSheetVersion: this.data.cheatSheetVersion,
      senderEmail: this.mail.senderEmail,
      senderIdentityArn: this.mail.identityArn,
      configurationSetName: this.mail.configurationSetName,
      configurationSetArn: this.mail.configurationSetArn,
      originSecret: this.originSecret.secret,
      encryptionKey,
      throttle: config.apiThrottle,
      addressDailyCap: config.addressDailyCap,
      clientHourlySendCap: config.clientHourlySendCap,
      networkHourlySendCap: config.networkHourlySendCap,
      clientHourlySaveCap: config.clientHourlySaveCap,
      networkHourlySaveCap: config.networkHourlySaveCap,
      dailySendBudget: config.dailySendBudget,
      challenge: config.challenge,
      requestRetentionDays: config.requestRetentionDays,
      mailProvider: config.mailProvider?.provider,
      handlerEntries: props.handlerEntries,
      functions,
    });
    // A route function that reads or writes a table may use the leads' key (its entry's tableAccess).
    for (const fn of Object.values(this.api.productFunctions)) {
      if (fn.entry.tableAccess.length > 0) this.leadsKey.allowTableUse(fn.role);
    }
    // A new PDF is in the bucket before the send function's fresh containers first read it.
    for (const route of routesOf(functions).filter(({ grants }) => grants.includes('cheatSheetRead'))) {
      this.api.productFunctions[route.name].function.node.addDependency(this.data.cheatSheetDeployment);
    }

    if (config.waf && props.webAclArn === undefined) this.webFirewall = new WebFirewall(this, 'WebFirewall');
    this.site = new Site(this, 'Site', {
      api: this.api.httpApi,
      originSecret: this.originSecret.secret,
      webAclArn: props.webAclArn ?? this.webFirewall?.webAclArn,
      accessLogsBucket: this.data.accessLogsBucket,
      encryptionKey,
      customDomain: config.customDomain,
      siteDirectory: props.buildOutput?.siteDirectory,
      pricingPlan: config.pricingPlan,
    });
    // The PDF too waits for the distribution: a create CloudFront refuses then rolls back over an
    // empty cheat-sheet bucket, which it can delete (site-files.ts says the same of the site's).
    this.data.cheatSheetDeployment.node.addDependency(this.site.distribution);
    if (config.pricingPlan === 'free') {
      if (!this.webFirewall) {
        throw new Error(
          'pricingPlan=free covers the distribution with its web ACL: deploy the product stack to us-east-1 with the web ACL on (no -c waf=false).',
        );
      }
      this.flatRatePlan = new FlatRatePlan(this, 'FlatRatePlan', {
        distribution: this.site.distribution,
        webAcl: this.webFirewall.webAcl,
      });
    }

    this.failedEvents = new FailedEvents(this, 'FailedEvents', { encryptionKey });
    if (config.mailProvider) {
      this.leadHandoff = new LeadHandoff(this, 'LeadHandoff', {
        mailProvider: config.mailProvider,
        table: this.data.table,
        encryptionKey,
      });
      // It reads the lead and the table's stream, and writes the outcome: the leads' key lets it.
      this.leadsKey.allowTableUse(this.leadHandoff.role);
    }

    this.monitoring = new Monitoring(this, 'Monitoring', {
      stage: this.api.stage,
      functions: this.api.functions,
      // The operations the functions' roles allow on each table: the catalogue's table access.
      tables: [
        { table: this.data.table, operations: tableOperationsOf('requests', builtFunctions) },
        { table: this.data.limitCountersTable, operations: tableOperationsOf('limitCounters', builtFunctions) },
        { table: this.data.idempotencyTable, operations: tableOperationsOf('idempotency', builtFunctions) },
        { table: this.data.funnelVisitorsTable, operations: tableOperationsOf('funnelVisitors', builtFunctions) },
      ],
      distribution: this.site.distribution,
      dailySendBudget: config.dailySendBudget,
      alarmEmail: config.alarmEmail,
      pageEndpoint: config.pageEndpoint,
      ticketEmail: config.ticketEmail,
      runbookBaseUrl: runbookBaseUrl(config.githubRepository),
      encryptionKey,
      // The one key of the product's data (the tables, logs, failed events, topics).
      dataKeys: [encryptionKey],
      sesConfigurationSet: { name: this.mail.configurationSetName, dimensionName: sesEventDimensionName },
      // Work that failed after its retries, every queue of it: one DeadLetters ticket.
      deadLetterQueues: [this.failedEvents.queue, ...(this.leadHandoff ? [this.leadHandoff.deadLetterQueue] : [])],
      ...(config.canary && {
        // The canary is built below, with the event functions, which need the alarm topic built here:
        // its name is read when the template is written.
        canaryFailures: canaryFailedRuns(
          Lazy.string({ produce: () => this.eventFunctions.byName.canary!.built.function.functionName }),
        ),
      }),
      sendQueue: this.sendQueue.queue,
    });

    this.eventFunctions = new EventFunctions(this, 'EventFunctions', {
      requestsTable: this.data.table,
      limitCountersTable: this.data.limitCountersTable,
      senderEmail: this.mail.senderEmail,
      senderIdentityArn: this.mail.identityArn,
      configurationSetName: this.mail.configurationSetName,
      configurationSetArn: this.mail.configurationSetArn,
      alarmTopic: this.monitoring.pagesTopic,
      pauseOnAlarms: [this.monitoring.causeAlarms.senderReputationAlarm],
      originSecret: this.originSecret.secret,
      authorEmail: config.authorEmail,
      ...(config.canary && { canarySiteUrl: config.siteUrl ?? this.site.url }),
      encryptionKey,
      entryPaths: props.handlerEntries,
      functions: builtFunctions,
    });
    // A function that reads or writes the requests or the counters may use the leads' key.
    for (const { built } of this.eventFunctions.list) {
      if (built.entry.tableAccess.length > 0) this.leadsKey.allowTableUse(built.role);
    }
    // Each one's invocations that still fail after Lambda's two retries go to the dead-letter queue,
    // which is under the leads' key (a failed SES event names the reader): its role may use the key
    // through SQS.
    for (const { built } of this.eventFunctions.list) {
      this.failedEvents.catchFailuresOf(built.function, built.entry.failedRunRetries);
      this.leadsKey.allowQueueUse(built.role);
    }

    if (config.githubRepository) {
      const send = this.api.productFunctions.sendCheatSheet;
      const digest = this.eventFunctions.byName.leadDigest?.built.function;
      this.leadsAccess = new LeadsAccess(this, 'LeadsAccess', {
        repository: config.githubRepository,
        // The deploy role's environment: the stage's name (the stage-less stack is production's).
        environment: config.stage?.name ?? 'production',
        oidcProviderArn: config.githubOidcProviderArn,
        requestsTable: this.data.table,
        limitCountersTable: this.data.limitCountersTable,
        idempotencyTable: this.data.idempotencyTable,
        ...(this.leadHandoff && { mailProviderSecretArn: this.leadHandoff.secret.ref }),
        deploymentSecret: this.originSecret.secret,
        senderIdentityArn: this.mail.identityArn,
        configurationSetArn: this.mail.configurationSetArn,
        ...(config.authorEmail !== undefined &&
          digest && { author: { email: config.authorEmail, digestFunctionArn: digest.functionArn } }),
        sendFunctionArn: send.function.functionArn,
        sendFunctionRole: send.role,
      });
      this.leadsKey.allowTableUse(this.leadsAccess.readerRole);
      this.leadsKey.allowTableUse(this.leadsAccess.operatorRole);
      this.leadsKey.allowTableUse(this.leadsAccess.breakGlassRole);
      // The DeadLetters tickets are the operator's: the Leads workflow's dead-letters job, or a terminal as break glass.
      const deadLetterWorkers = [this.leadsAccess.operatorRole, this.leadsAccess.breakGlassRole];
      new DeadLetterAccess(this, 'DeadLetterAccess', {
        roles: deadLetterWorkers,
        deadLetterQueues: [this.failedEvents.queue, ...(this.leadHandoff ? [this.leadHandoff.deadLetterQueue] : [])],
        ...(this.leadHandoff && { redriveQueues: [this.leadHandoff.queue] }),
        eventFunctions: this.eventFunctions.list.map(({ built }) => built.function),
      });
      for (const role of deadLetterWorkers) this.leadsKey.allowDeadLetterReading(role);
      new CfnOutput(this, 'LeadsReaderRoleArn', {
        description: 'The role the leads workflow assumes for export and erase (.github/workflows/leads.yml).',
        value: this.leadsAccess.readerRole.roleArn,
      });
      new CfnOutput(this, 'LeadsOperatorRoleArn', {
        description: 'The role the leads workflow assumes for unsent and resend (.github/workflows/leads.yml).',
        value: this.leadsAccess.operatorRole.roleArn,
      });
      if (this.leadHandoff) {
        // The author stores the mail tool's key from GitHub (.github/workflows/mail-key.yml), no terminal.
        const mailKey = new MailKeyAccess(this, 'MailKeyAccess', {
          repository: config.githubRepository,
          environment: config.stage?.name ?? 'production',
          oidcProviderArn: config.githubOidcProviderArn,
          mailProviderSecretArn: this.leadHandoff.secret.ref,
        });
        new CfnOutput(this, 'MailKeyRoleArn', {
          description:
            "The role the mail-key workflow assumes to store the mail tool's key (.github/workflows/mail-key.yml).",
          value: mailKey.role.roleArn,
        });
      }
      new CfnOutput(this, 'BreakGlassRoleArn', {
        description:
          "Break glass (docs/operate.md): the leads operator's rights from a terminal, for the account's administrators with MFA.",
        value: this.leadsAccess.breakGlassRole.roleArn,
      });
      new CfnOutput(this, 'SendFunctionName', {
        description: 'The send function: resend reads its environment and sends as its role.',
        value: send.function.functionName,
      });
      new CfnOutput(this, 'SenderEmail', {
        description: 'The address the cheat sheet, the digest and the exported CSV are sent from.',
        value: this.mail.senderEmail,
      });
      // Not the author's address itself: `cdk deploy` prints every output into the deploy log
      // (GitHub Actions' included). export --mail reads it from this function's environment.
      if (digest) {
        new CfnOutput(this, 'LeadDigestFunctionName', {
          description:
            "The weekly digest function: its environment's AUTHOR_EMAIL is where the digest and export --mail go.",
          value: digest.functionName,
        });
      }
    }

    addStackOutputs(this);
  }
}

/** The canary's failed runs: its function's Errors (AWS/Lambda, free), summed. */
function canaryFailedRuns(functionName: string): Metric {
  return new Metric({
    namespace: 'AWS/Lambda',
    metricName: 'Errors',
    dimensionsMap: { FunctionName: functionName },
    statistic: 'Sum',
  });
}
