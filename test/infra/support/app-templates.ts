/**
 * Every stack of the app as `cdk synth` would write it for the given context (a stage of cdk.json,
 * `-c` values), read back as plain template JSON: what the repository's tests hold the operator's
 * pages to. No bundling; one synth per call, so a test file calls it once per context.
 */
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { parseDeploymentConfig } from '../../../infra/config';
import { createAppStacks } from '../../../infra/stacks';
import { fixtures, testApp } from './synth';

export interface TemplateResource {
  readonly Type: string;
  readonly Properties: Record<string, any>;
}

export interface StackTemplate {
  readonly stackName: string;
  readonly region: string;
  /** Each resource by its logical id. */
  readonly resources: Readonly<Record<string, TemplateResource>>;
}

export function appTemplates(context: Record<string, unknown>, deploymentTarget = {}): StackTemplate[] {
  const app = testApp({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const config = parseDeploymentConfig((key) => app.node.tryGetContext(key));
  createAppStacks(app, { config, deploymentTarget, buildOutput: fixtures });
  return app.node.children
    .filter((child): child is Stack => child instanceof Stack)
    .map((stack) => ({
      stackName: stack.stackName,
      region: stack.region,
      resources: (Template.fromStack(stack).toJSON().Resources ?? {}) as Record<string, TemplateResource>,
    }));
}

/** Each resource of `type` in `templates`, with its stack and logical id. */
export function resourcesOfType(
  templates: readonly StackTemplate[],
  type: string,
): { stack: StackTemplate; logicalId: string; resource: TemplateResource }[] {
  return templates.flatMap((stack) =>
    Object.entries(stack.resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([logicalId, resource]) => ({ stack, logicalId, resource })),
  );
}
