import { Annotations, CfnOutput, Stack } from 'aws-cdk-lib';
import {
  CloudWatchDimensionSource,
  ConfigurationSet,
  type ConfigurationSetEventDestination,
  DkimIdentity,
  EasyDkimSigningKeyLength,
  EmailIdentity,
  EmailSendingEvent,
  EventDestination,
  Identity,
  ConfigurationSetTlsPolicy,
  MailFromBehaviorOnMxFailure,
  SuppressionReasons,
  type DkimRecord,
} from 'aws-cdk-lib/aws-ses';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';

/**
 * The CloudWatch dimension of the configuration set's events (namespace `AWS/SES`): SES's own
 * auto-tag, so every message sent through the set carries it without a tag in SendEmail.
 */
export const sesEventDimensionName = 'ses:configuration-set';

/** What the configuration set publishes: what hurts the sender's reputation, and what shows it is fine. */
export const publishedSendingEvents: readonly EmailSendingEvent[] = [
  EmailSendingEvent.BOUNCE,
  EmailSendingEvent.COMPLAINT,
  EmailSendingEvent.REJECT,
  EmailSendingEvent.DELIVERY,
];

/**
 * What the configuration set sends to EventBridge's default bus, for each request's record
 * (infra/constructs/delivery-tracking.ts): delivered, bounced, complained.
 */
export const eventBridgeSendingEvents: readonly EmailSendingEvent[] = [
  EmailSendingEvent.DELIVERY,
  EmailSendingEvent.BOUNCE,
  EmailSendingEvent.COMPLAINT,
];

/** The id of the synth warning shown when mail leaves without a domain of its own. */
export const noSenderDomainWarning = 'first100days:mail:noSenderDomain';

/** A DNS record the operator publishes for the mail to be verified or to align. */
export interface MailDnsRecord {
  readonly name: string;
  readonly type: 'CNAME' | 'MX' | 'TXT';
  readonly value: string;
}

export interface MailProps {
  /** The From address of the cheat-sheet e-mail. */
  readonly senderEmail: string;
  /**
   * Verify this whole domain (Easy DKIM, 2048-bit) instead of the single address; senderEmail
   * must then be at this domain.
   *
   * @default - only senderEmail is verified, by the link SES e-mails to it (and the synth warns)
   */
  readonly senderDomain?: string;
  /**
   * The SES identity (senderDomain, else senderEmail) exists already in this account and region,
   * e.g. verified in the console before the first deploy: use it instead of creating it, since
   * CloudFormation cannot create an identity that exists. The stack then neither changes nor
   * deletes it, and its DKIM and MAIL FROM settings stay as the console has them.
   *
   * @default false: the stack creates the identity
   */
  readonly senderIdentityExists?: boolean;
  /**
   * With senderDomain, on an identity the stack creates: mail leaves with MAIL FROM
   * `<mailFromSubdomain>.<senderDomain>` (e.g. `mail` gives `mail.example.com`), so SPF aligns
   * with the From domain as DKIM does. Its MX and SPF records are stack outputs to publish.
   *
   * @default - SES's own MAIL FROM domain (a subdomain of amazonses.com): SPF passes but does not
   * align; DMARC still passes through the aligned DKIM signature
   */
  readonly mailFromSubdomain?: string;
}

/**
 * The SES identity the cheat sheet is sent from, and the configuration set it is sent through:
 * reputation metrics on (bounce and complaint rates in CloudWatch, which SES watches to pause an
 * account at about 5% bounces or 0.1% complaints), addresses that bounce or complain put on the
 * account's suppression list so they are never mailed again, and the bounce, complaint, reject
 * and delivery events counted in CloudWatch for graphs and alarms.
 */
export class Mail extends Construct {
  /** The identity the stack created; undefined with `senderIdentityExists`. */
  public readonly identity?: EmailIdentity;
  /** The identity's name: senderDomain when given, else senderEmail. */
  public readonly identityName: string;
  /** The identity's ARN: with the configuration set's, the only resources the send function may call `ses:SendEmail` on. */
  public readonly identityArn: string;
  public readonly configurationSet: ConfigurationSet;
  public readonly configurationSetName: string;
  public readonly configurationSetArn: string;
  /** CloudWatch metrics `AWS/SES` Bounce, Complaint, Reject, Delivery by `ses:configuration-set`. */
  public readonly eventDestination: ConfigurationSetEventDestination;
  /**
   * Delivery, bounce and complaint events to EventBridge's default bus (SES v2's EventBridge
   * destination takes the default bus only): each event names its message and carries its tags.
   */
  public readonly eventBridgeDestination: ConfigurationSetEventDestination;
  /** The address the send function puts in From. */
  public readonly senderEmail: string;
  /**
   * The three CNAME records to publish for a domain identity the stack creates; empty for an
   * address identity or an existing one (its records are in the SES console).
   */
  public readonly dkimRecords: readonly DkimRecord[];
  /** `<mailFromSubdomain>.<senderDomain>`; undefined without mailFromSubdomain. */
  public readonly mailFromDomain?: string;
  /** The MX and SPF records of mailFromDomain; empty without it. */
  public readonly mailFromRecords: readonly MailDnsRecord[];

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    this.senderEmail = props.senderEmail;
    const { senderDomain, mailFromSubdomain } = props;
    const stack = Stack.of(this);

    if (mailFromSubdomain !== undefined) {
      if (senderDomain === undefined) {
        throw new Error('mailFromSubdomain needs senderDomain: the MAIL FROM domain is a subdomain of it.');
      }
      if (props.senderIdentityExists) {
        // CloudFormation sets the MAIL FROM domain only on an identity it creates.
        throw new Error(
          `mailFromSubdomain needs an identity the stack creates, not an existing one: set the MAIL FROM domain ${mailFromSubdomain}.${senderDomain} on the existing identity in the SES console instead, and leave mailFromSubdomain out.`,
        );
      }
      if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(mailFromSubdomain)) {
        throw new Error(`mailFromSubdomain "${mailFromSubdomain}" is not one DNS label, e.g. mail.`);
      }
      this.mailFromDomain = `${mailFromSubdomain.toLowerCase()}.${senderDomain}`;
    }

    this.identityName = senderDomain ?? props.senderEmail;
    if (props.senderIdentityExists) {
      // The ARN the created identity would have: the send permissions name exactly this identity.
      this.identityArn = stack.formatArn({ service: 'ses', resource: 'identity', resourceName: this.identityName });
      this.dkimRecords = [];
    } else {
      const identity = new EmailIdentity(
        this,
        'SenderIdentity',
        senderDomain
          ? {
              identity: Identity.domain(senderDomain),
              // SES's defaults, spelled out so the template shows them to an auditor.
              dkimSigning: true,
              dkimIdentity: DkimIdentity.easyDkim(EasyDkimSigningKeyLength.RSA_2048_BIT),
              ...(this.mailFromDomain && {
                mailFromDomain: this.mailFromDomain,
                // Until the MX record is published, mail still leaves (with SES's MAIL FROM).
                mailFromBehaviorOnMxFailure: MailFromBehaviorOnMxFailure.USE_DEFAULT_VALUE,
              }),
            }
          : // An address identity is verified by the link SES e-mails to it and signs with SES's DKIM.
            { identity: Identity.email(props.senderEmail) },
      );
      this.identity = identity;
      this.identityArn = identity.emailIdentityArn;
      this.dkimRecords = senderDomain ? identity.dkimRecords : [];
    }

    // AWS's documented records for a custom MAIL FROM domain: SES receives bounces through the MX
    // record, and the SPF record lets SES send for the domain.
    this.mailFromRecords = this.mailFromDomain
      ? [
          { name: this.mailFromDomain, type: 'MX', value: `10 feedback-smtp.${stack.region}.amazonses.com` },
          { name: this.mailFromDomain, type: 'TXT', value: '"v=spf1 include:amazonses.com ~all"' },
        ]
      : [];
    this.addDnsRecordOutputs();

    if (senderDomain === undefined) {
      const fromDomain = props.senderEmail.split('@')[1] ?? props.senderEmail;
      Annotations.of(this).addWarningV2(
        noSenderDomainWarning,
        `No senderDomain: the cheat sheet leaves From ${props.senderEmail} with SES's own DKIM signature and MAIL FROM (amazonses.com), neither aligned with ${fromDomain}, so DMARC fails; where ${fromDomain} publishes DMARC p=quarantine or p=reject it is junked or refused, and those bounces count against the account. If you control ${fromDomain}, pass -c senderDomain=${fromDomain} and publish its DKIM records (and -c mailFromSubdomain=mail for SPF alignment).`,
      );
    }

    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      // The message carries a reader's name and address: SES delivers it only over TLS, and
      // returns it (a bounce) to a receiving server that offers none, rather than send it in clear.
      tlsPolicy: ConfigurationSetTlsPolicy.REQUIRE,
      // No `sendingEnabled`: the template leaves the sending state alone, so a deploy never
      // resumes what the pause function or `npm run sending -- pause` stopped (docs/operate.md).
    });
    this.configurationSetName = this.configurationSet.configurationSetName;
    this.configurationSetArn = Stack.of(this).formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSetName,
    });
    this.eventDestination = this.configurationSet.addEventDestination('CloudWatch', {
      destination: EventDestination.cloudWatchDimensions([
        {
          source: CloudWatchDimensionSource.MESSAGE_TAG,
          name: sesEventDimensionName,
          // SES sets the auto-tag on every message of the set; the default is never needed.
          defaultValue: this.configurationSetName,
        },
      ]),
      events: [...publishedSendingEvents],
    });
    // EventBridge charges nothing for AWS service events on the default bus; the rule's target is.
    this.eventBridgeDestination = this.configurationSet.addEventDestination('EventBridge', {
      destination: EventDestination.eventBus(EventBus.fromEventBusName(this, 'DefaultEventBus', 'default')),
      events: [...eventBridgeSendingEvents],
    });
  }

  /**
   * The DNS records to publish, as stack outputs with fixed names (`SenderDomainDkimRecord1`…3,
   * `MailFromMxRecord`, `MailFromSpfRecord`), whatever construct path the Mail has.
   */
  private addDnsRecordOutputs(): void {
    this.dkimRecords.forEach((record, index) => {
      const output = new CfnOutput(this, `SenderDomainDkimRecord${index + 1}`, {
        description: "Publish as a CNAME in the sender domain's DNS: SES verifies the domain by it.",
        value: `${record.name} CNAME ${record.value}`,
      });
      output.overrideLogicalId(`SenderDomainDkimRecord${index + 1}`);
    });
    for (const record of this.mailFromRecords) {
      const name = record.type === 'MX' ? 'MailFromMxRecord' : 'MailFromSpfRecord';
      const output = new CfnOutput(this, name, {
        description:
          record.type === 'MX'
            ? 'Publish in DNS: SES receives bounces at the MAIL FROM domain by it (without it, SES uses its own MAIL FROM).'
            : 'Publish in DNS: the SPF record that lets SES send for the MAIL FROM domain, so SPF aligns with the From domain.',
        value: `${record.name} ${record.type} ${record.value}`,
      });
      output.overrideLogicalId(name);
    }
  }
}
