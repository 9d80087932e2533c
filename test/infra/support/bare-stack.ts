/**
 * An empty stack to test one construct in, with cdk.json's feature flags (so the construct
 * synthesizes as it does in the product) and no bundling.
 */
import { App, type Environment, Stack } from 'aws-cdk-lib';
import { cdkJsonContext } from './synth';

export interface BareStackOptions {
  /** @default 'TestStack' */
  readonly stackName?: string;
  /** @default - environment-agnostic, as the product stack is without waf */
  readonly env?: Environment;
}

export function bareStack(options: BareStackOptions = {}): Stack {
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
  return new Stack(app, options.stackName ?? 'TestStack', { env: options.env });
}
