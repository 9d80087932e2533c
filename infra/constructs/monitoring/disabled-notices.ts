import { Aws, Stack, Validations } from 'aws-cdk-lib';
import { EventField, Rule, RuleTargetInput, type EventPattern, type IRuleTarget } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { AlarmTopic } from './alarm-topic';
import { alarmRunbook, describeAlarm, runbookDescription, runbookDocPath } from './runbook';

export interface DisabledNoticesProps {
  /** The pages topic: a disabled key or sending stops every reader's request. */
  readonly pages: AlarmTopic;
  /** The keys the product's data is under: the stack's one key, the leads'. */
  readonly keys: readonly IKey[];
  /** @default `docs/operate.md` (runbook.ts) */
  readonly runbookBaseUrl?: string;
}

/**
 * SES's sending status (source `aws.ses`): SES sends `Sending Status Disabled` to EventBridge
 * directly, without a CloudTrail trail
 * (https://docs.aws.amazon.com/eventbridge/latest/ref/events-ref-ses.html). No detail filter: the
 * configuration set's sending and the account's both stop every cheat sheet.
 */
export const sendingDisabledPattern: EventPattern = {
  source: ['aws.ses'],
  detailType: ['Sending Status Disabled'],
};

/**
 * A key deleted: KMS sends `KMS CMK Deletion` to EventBridge directly, without a trail
 * (https://docs.aws.amazon.com/kms/latest/developerguide/kms-events.html), with the key's ARN in
 * `resources`. Disabling a key or scheduling its deletion sends no event of KMS's own.
 */
export function keyDeletedPattern(keyArns: readonly string[]): EventPattern {
  return { source: ['aws.kms'], detailType: ['KMS CMK Deletion'], resources: [...keyArns] };
}

/**
 * A key disabled or scheduled for deletion: only CloudTrail records those calls, and CloudTrail
 * sends `AWS API Call via CloudTrail` events to EventBridge only while a trail logs management
 * events in the account (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-service-event.html;
 * Control Tower's organization trail is one). The key's ARN is in the record's `resources`.
 */
export function keyDisabledPattern(keyArns: readonly string[]): EventPattern {
  return {
    source: ['aws.kms'],
    detailType: ['AWS API Call via CloudTrail'],
    detail: {
      eventSource: ['kms.amazonaws.com'],
      eventName: ['DisableKey', 'ScheduleKeyDeletion'],
      resources: { ARN: [...keyArns] },
    },
  };
}

/**
 * The causes no objective sees at rest, the key or the configuration set disabled, as EventBridge
 * rules on AWS's own events that page through the pages topic: no alarm (the stage keeps its ten),
 * no metric, and nothing to pay (EventBridge delivers AWS service events on the default bus free of
 * charge; SNS's first 1,000 e-mails a month are free). Each notification starts with its severity
 * and ends with the event, after the runbook link.
 *
 * What it cannot tell: a disabled key silences the topics it encrypts, this one included
 * (docs/operate.md says how to check the key).
 */
export class DisabledNotices extends Construct {
  public readonly sendingDisabledRule: Rule;
  public readonly keyDeletedRule: Rule;
  public readonly keyDisabledRule: Rule;

  constructor(scope: Construct, id: string, props: DisabledNoticesProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const keyArns = props.keys.map((key) => key.keyArn);
    const baseUrl = props.runbookBaseUrl ?? runbookDocPath;
    const entry = alarmRunbook.KeyOrConfigurationSetDisabled;
    const notice = (situation: string, ...fields: string[]) =>
      RuleTargetInput.fromText(
        `${runbookDescription(describeAlarm(situation, entry), baseUrl)} The event: ${EventField.fromPath('$.detail-type')} at ${EventField.fromPath('$.time')}, ${fields.join(', ')}`,
      );

    this.sendingDisabledRule = new Rule(this, 'SendingDisabled', {
      description: 'Pages when SES disables sending (the configuration set or the account).',
      eventPattern: sendingDisabledPattern,
      targets: [
        toTopic(
          props.pages.topic,
          notice(
            'SES disabled sending: no reader gets the cheat sheet until it is resumed.',
            EventField.fromPath('$.detail'),
          ),
        ),
      ],
    });
    this.keyDeletedRule = new Rule(this, 'KeyDeleted', {
      description: "Pages when KMS deletes the stack's key.",
      eventPattern: keyDeletedPattern(keyArns),
      targets: [
        toTopic(
          props.pages.topic,
          notice(
            "The key of the stack's data was deleted: what it encrypted cannot be read again.",
            EventField.fromPath('$.resources'),
          ),
        ),
      ],
    });
    this.keyDisabledRule = new Rule(this, 'KeyDisabled', {
      description: "Pages when the stack's key is disabled or scheduled for deletion (needs a CloudTrail trail).",
      eventPattern: keyDisabledPattern(keyArns),
      targets: [
        toTopic(
          props.pages.topic,
          notice(
            "The key of the stack's data was disabled or scheduled for deletion: every table, log group, queue and topic under it fails.",
            EventField.fromPath('$.detail.eventName'),
            EventField.fromPath('$.detail.userIdentity.arn'),
            EventField.fromPath('$.detail.requestParameters.keyId'),
          ),
        ),
      ],
    });

    for (const rule of [this.sendingDisabledRule, this.keyDeletedRule, this.keyDisabledRule]) {
      Validations.of(rule.node.defaultChild ?? rule).acknowledge({
        id: 'Serverless::Serverless-EventBusDLQ',
        reason:
          "A notice EventBridge cannot publish after its retries (24 hours) can only have failed on the pages topic or its key; a dead-letter queue's alarm would notify through the same topics, under the same key, so it would tell no one more. The event stays in SES's and KMS's consoles and in CloudTrail.",
      });
    }

    // EventBridge may publish to the topic for this stack's rules alone (CloudFormation names them
    // `<stack name>-…`; the rules' own ARNs would make the key depend on the rules, which depend on
    // the topic, which depends on the key). CDK's SNS target would grant both to the service with no
    // condition: the target is written here.
    const fromTheseRules = {
      ArnLike: {
        'aws:SourceArn': `arn:${Aws.PARTITION}:events:${Aws.REGION}:${Aws.ACCOUNT_ID}:rule/${stack.stackName}-*`,
      },
      StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
    };
    const events = new ServicePrincipal('events.amazonaws.com');
    props.pages.topic.addToResourcePolicy(
      new PolicyStatement({
        principals: [events],
        actions: ['sns:Publish'],
        resources: [props.pages.topic.topicArn],
        conditions: fromTheseRules,
      }),
    );
    // The key is conditioned on what EventBridge encrypts, not on who asks: SNS's guide for
    // encrypted topics does not support aws:SourceArn or aws:SourceAccount in a key policy for
    // EventBridge (its KMS calls do not carry them, and the notices would be dropped). SNS's data
    // keys carry the topic's ARN as encryption context: this stack's topics alone (`<stack name>-…`,
    // as CloudFormation names them; the topic's own ARN would be the same circle as above).
    props.pages.encryptionKey.addToResourcePolicy(
      new PolicyStatement({
        sid: 'EventBridgeRulesPublishToThePagesTopic',
        principals: [events],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: {
          ArnLike: {
            'kms:EncryptionContext:aws:sns:topicArn': `arn:${Aws.PARTITION}:sns:${Aws.REGION}:${Aws.ACCOUNT_ID}:${stack.stackName}-*`,
          },
        },
      }),
    );
  }
}

/** The topic as a rule's target, with the notice as its message; the grants are the construct's own. */
function toTopic(topic: ITopic, message: RuleTargetInput): IRuleTarget {
  return { bind: () => ({ arn: topic.topicArn, input: message, targetResource: topic }) };
}
