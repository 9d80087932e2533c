/**
 * An empty stack to test one construct in, with cdk.json's feature flags (so the construct
 * synthesizes as it does in the product) and no bundling.
 */
import { Annotations, type Environment, Stack } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Template } from 'aws-cdk-lib/assertions';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Bucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { OriginSecret } from '../../../infra/constructs/origin-secret';
import { noWebAclWarning, Site, type SiteProps } from '../../../infra/constructs/site';
import { fixtures, testApp } from './synth';

export interface BareStackOptions {
  /** @default 'TestStack' */
  readonly stackName?: string;
  /** @default - environment-agnostic, as the product stack is without waf */
  readonly env?: Environment;
}

export function bareStack(options: BareStackOptions = {}): Stack {
  const app = testApp({ context: { 'aws:cdk:bundling-stacks': [] } });
  return new Stack(app, options.stackName ?? 'TestStack', { env: options.env });
}

/** A bare stack named like the product's (alarm names start with it), with a topic for alarms' actions. */
export function alarmStack(props: { readonly region?: string } = {}): {
  stack: Stack;
  alarmAction: IAlarmAction;
  topic: Topic;
} {
  const stack = bareStack({ stackName: 'First100DaysSite', env: props.region ? { region: props.region } : undefined });
  const topic = new Topic(stack, 'Topic');
  return { stack, alarmAction: new SnsAction(topic), topic };
}

/** The Site in a stack of its own, with only what it needs: a key, a log bucket, an API, the origin secret. */
export function siteInBareStack(options: BareStackOptions & { readonly props?: Partial<SiteProps> } = {}): {
  site: Site;
  template: Template;
} {
  const stack = bareStack(options);
  const site = new Site(stack, 'Site', {
    api: new HttpApi(stack, 'Api'),
    originSecret: new OriginSecret(stack, 'OriginSecret').secret,
    // As the product's: CloudFront delivers its logs through ACLs.
    accessLogsBucket: new Bucket(stack, 'AccessLogsBucket', {
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
    }),
    encryptionKey: new Key(stack, 'LeadsKey'),
    siteDirectory: fixtures.siteDirectory,
    ...options.props,
  });
  if (!site.node.tryGetContext('waf') && options.props?.webAclArn === undefined) {
    // Without a web ACL by choice of the helper: its warning is test/infra/stack-with-waf.test.ts's.
    Annotations.of(site).acknowledgeWarning(noWebAclWarning, 'The Site alone is tested without a web ACL.');
  }
  return { site, template: Template.fromStack(stack) };
}
