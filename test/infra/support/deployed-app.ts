/**
 * A stage's stacks synthesized in-process (no bundling) and read back as deployed
 * (infra/tools/rehearsal/deployed-stacks.ts), optionally after a change to one template: how the
 * rehearsal's tests build what they judge, and break it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDeploymentConfig } from '../../../infra/config';
import { createAppStacks } from '../../../infra/stacks';
import { readDeployedStacks, type DeployedStack } from '../../../infra/tools/rehearsal/deployed-stacks';
import { fixtures, testApp } from './synth';

/** Synthesizes the app's stacks for `context` and returns the cloud assembly's folder. */
export function synthAssembly(context: Record<string, unknown>, deploymentTarget = { region: 'us-east-1' }): string {
  const app = testApp({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const config = parseDeploymentConfig((key) => app.node.tryGetContext(key));
  createAppStacks(app, { config, deploymentTarget, buildOutput: fixtures });
  return app.synth().directory;
}

type TemplateJson = { Resources: Record<string, { Type: string; Properties: Record<string, any> }> };

/** Reads the assembly, after `edit` changed the template of the stack whose name starts with `stackPrefix`. */
export function deployedStacks(
  assembly: string,
  edit?: { readonly stack: string; readonly change: (template: TemplateJson) => void },
): DeployedStack[] {
  if (edit) {
    const file = path.join(assembly, `${edit.stack}.template.json`);
    const original = readFileSync(file, 'utf8');
    const template = JSON.parse(original) as TemplateJson;
    edit.change(template);
    writeFileSync(file, JSON.stringify(template));
    try {
      return readDeployedStacks(assembly, { region: 'us-east-1' });
    } finally {
      writeFileSync(file, original);
    }
  }
  return readDeployedStacks(assembly, { region: 'us-east-1' });
}

/** Every resource of a type in a template, with its logical id. */
export function resourcesOf(template: TemplateJson, type: string): [string, TemplateJson['Resources'][string]][] {
  return Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
}
