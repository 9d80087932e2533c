import { DkimIdentity, EasyDkimSigningKeyLength, EmailIdentity, Identity, type DkimRecord } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

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

/** The SES identity the cheat sheet is sent from. */
export class Mail extends Construct {
  public readonly identity: EmailIdentity;
  /** The only resource the send function may call `ses:SendEmail` on. */
  public readonly identityArn: string;
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
  }
}
