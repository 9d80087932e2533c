import { Stack } from 'aws-cdk-lib';
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
  SuppressionReasons,
  type DkimRecord,
} from 'aws-cdk-lib/aws-ses';
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

export interface MailProps {
  /** The From address of the cheat-sheet e-mail. */
  readonly senderEmail: string;
  /**
   * Verify this whole domain (Easy DKIM, 2048-bit) instead of the single address; senderEmail
   * must then be at this domain.
   *
   * @default - only senderEmail is verified, by the link SES e-mails to it
   */
  readonly senderDomain?: string;
}

/**
 * The SES identity the cheat sheet is sent from, and the configuration set it is sent through:
 * reputation metrics on (bounce and complaint rates in CloudWatch, which SES watches to pause an
 * account at about 5% bounces or 0.1% complaints), addresses that bounce or complain put on the
 * account's suppression list so they are never mailed again, and the bounce, complaint, reject
 * and delivery events counted in CloudWatch for graphs and alarms.
 */
export class Mail extends Construct {
  public readonly identity: EmailIdentity;
  /** The identity's ARN: with the configuration set's, the only resources the send function may call `ses:SendEmail` on. */
  public readonly identityArn: string;
  public readonly configurationSet: ConfigurationSet;
  public readonly configurationSetName: string;
  public readonly configurationSetArn: string;
  /** CloudWatch metrics `AWS/SES` Bounce, Complaint, Reject, Delivery by `ses:configuration-set`. */
  public readonly eventDestination: ConfigurationSetEventDestination;
  /** The address the send function puts in From. */
  public readonly senderEmail: string;
  /** The three CNAME records to publish for a domain identity; empty for an address identity. */
  public readonly dkimRecords: readonly DkimRecord[];

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    this.senderEmail = props.senderEmail;

    this.identity = new EmailIdentity(
      this,
      'SenderIdentity',
      props.senderDomain
        ? {
            identity: Identity.domain(props.senderDomain),
            // SES's defaults, spelled out so the template shows them to an auditor.
            dkimSigning: true,
            dkimIdentity: DkimIdentity.easyDkim(EasyDkimSigningKeyLength.RSA_2048_BIT),
          }
        : // An address identity is verified by the link SES e-mails to it and signs with SES's DKIM.
          { identity: Identity.email(props.senderEmail) },
    );
    this.identityArn = this.identity.emailIdentityArn;
    this.dkimRecords = props.senderDomain ? this.identity.dkimRecords : [];

    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      sendingEnabled: true,
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
  }
}
