/**
 * The app's stacks per stage (infra/stacks.ts): names, accounts and regions from cdk.json's
 * `stages`, the DeployAccess stack only with a repository, and the project and stage tags on
 * every resource. The product is synthesized once (staging); the rest reads the construct tree.
 */
import { readFileSync } from 'node:fs';
import { type App, Aspects, Stack, Tag, Token } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { parseDeploymentConfig } from '../../infra/config';
import { createAppStacks } from '../../infra/stacks';
import { fixtures, testApp } from './support/synth';

/** The app entry's work, with cdk.json's context (its stages too), `-c` values and no bundling. */
function appStacks(context: Record<string, unknown>, deploymentTarget = {}) {
  const app = testApp({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const config = parseDeploymentConfig((key) => app.node.tryGetContext(key));
  return { app, ...createAppStacks(app, { config, deploymentTarget, buildOutput: fixtures }) };
}

const stackNames = (app: App) =>
  app.node.children.filter((child): child is Stack => child instanceof Stack).map((stack) => stack.stackName);
const tagsOf = (app: App) =>
  Aspects.of(app)
    .all.filter((aspect): aspect is Tag => aspect instanceof Tag)
    .map((tag) => [tag.key, tag.value]);

describe('without a stage, as before stages existed', () => {
  let app: App, site: Stack, deployAccess: Stack | undefined;
  beforeAll(() => ({ app, site, deployAccess } = appStacks({ senderEmail: 'cheatsheet@example.com', waf: 'false' })));

  test('with -c waf=false, builds First100DaysSite alone, environment-agnostic', () => {
    expect(stackNames(app)).toEqual(['First100DaysSite']);
    expect(Token.isUnresolved(site.account) && Token.isUnresolved(site.region)).toBe(true);
    expect(deployAccess).toBeUndefined();
  });

  test('tags the resources with the project only', () => {
    expect(tagsOf(app)).toEqual([['project', 'first-100-days-site']]);
  });

  test('with the web ACL (the default), still places the firewall stack under its old name, in us-east-1', () => {
    const withWaf = appStacks({ senderEmail: 'cheatsheet@example.com' }, { region: 'eu-west-1' });
    expect(stackNames(withWaf.app)).toEqual([
      'First100DaysSiteWebFirewall',
      'First100DaysSite',
      'First100DaysSiteEdgeMonitoring',
    ]);
  });
});

describe('-c stage=production', () => {
  test("keeps the stack name First100DaysSite, in production's account and region, its web ACL's stack beside it", () => {
    const { app, site } = appStacks({ stage: 'production' });
    expect(stackNames(app)).toEqual([
      'First100DaysSiteWebFirewall',
      'First100DaysSite',
      'First100DaysSiteEdgeMonitoring',
    ]);
    expect([site.account, site.region]).toEqual(['222222222222', 'eu-west-1']);
  });

  test('keeps the firewall stack name First100DaysSiteWebFirewall too', () => {
    const { webFirewall } = appStacks({ stage: 'production' });
    expect([webFirewall?.stackName, webFirewall?.account, webFirewall?.region]).toEqual([
      'First100DaysSiteWebFirewall',
      '222222222222',
      'us-east-1',
    ]);
  });
});

describe('-c stage=staging', () => {
  test('puts the firewall stack, named for the stage, in us-east-1 of the same account', () => {
    const { webFirewall } = appStacks({ stage: 'staging' });
    expect([webFirewall?.stackName, webFirewall?.account, webFirewall?.region]).toEqual([
      'First100DaysSiteWebFirewall-staging',
      '111111111111',
      'us-east-1',
    ]);
  });

  test('leaves DeployAccess out without githubRepository', () => {
    const { app, deployAccess } = appStacks({ stage: 'staging' });
    expect(deployAccess).toBeUndefined();
    expect(stackNames(app)).toEqual([
      'First100DaysSiteWebFirewall-staging',
      'First100DaysSite-staging',
      'First100DaysSiteEdgeMonitoring-staging',
    ]);
  });

  describe('synthesized, with githubRepository and an alarmEmail given by -c', () => {
    let app: App, site: Stack, deployAccess: Stack | undefined, template: Template;
    beforeAll(() => {
      ({ app, site, deployAccess } = appStacks({
        stage: 'staging',
        githubRepository: 'some-org/first-100-days-site',
        alarmEmail: 'oncall@example.com',
      }));
      template = Template.fromStack(site);
    });

    test("builds First100DaysSite-staging and DeployAccess, both in staging's account and region", () => {
      expect(stackNames(app)).toEqual([
        'First100DaysSiteWebFirewall-staging',
        'First100DaysSite-staging',
        'First100DaysSiteEdgeMonitoring-staging',
        'DeployAccess',
      ]);
      for (const stack of [site, deployAccess!])
        expect([stack.account, stack.region]).toEqual(['111111111111', 'eu-west-1']);
    });

    test('trusts the staging GitHub environment of the repository', () => {
      Template.fromStack(deployAccess!).hasResourceProperties('AWS::IAM::Role', {
        AssumeRolePolicyDocument: {
          Statement: [
            {
              Condition: {
                StringEquals: {
                  'token.actions.githubusercontent.com:sub': 'repo:some-org/first-100-days-site:environment:staging',
                  'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
                },
              },
            },
          ],
        },
      });
    });

    test('creates the leads reader and operator roles, trusted only by the staging environment, and the leads key lets them read', () => {
      const roles = template.findResources('AWS::IAM::Role', {
        Properties: {
          AssumeRolePolicyDocument: {
            Statement: [
              {
                Condition: {
                  StringEquals: {
                    'token.actions.githubusercontent.com:sub': 'repo:some-org/first-100-days-site:environment:staging',
                  },
                },
              },
            ],
          },
        },
      });
      const ids = Object.keys(roles);
      expect(ids.map((id) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual([
        'LeadsAccessOperatorRole',
        'LeadsAccessReaderRole',
      ]);
      const keyPolicies = JSON.stringify(template.findResources('AWS::KMS::Key'));
      for (const id of ids) expect(keyPolicies).toContain(`"${id}"`);
      template.hasOutput('LeadsReaderRoleArn', {});
      template.hasOutput('LeadsOperatorRoleArn', {});
    });

    test("prints no output holding the author's address (deploy logs show every output), and names the digest function that holds it", () => {
      const cdkJson = JSON.parse(readFileSync('cdk.json', 'utf8')) as {
        context: { stages: { staging: { authorEmail: string } } };
      };
      const { authorEmail } = cdkJson.context.stages.staging;
      expect(JSON.stringify(template.findOutputs('*'))).not.toContain(authorEmail);
      template.hasOutput('LeadDigestFunctionName', {});
    });

    test("takes the stage's values from cdk.json", () => {
      template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'staging.example.com' });
    });

    test("lets -c override the stage's values", () => {
      template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
    });

    test.each([
      'AWS::DynamoDB::Table',
      'AWS::Lambda::Function',
      'AWS::S3::Bucket',
      'AWS::KMS::Key',
      'AWS::CloudFront::Distribution',
    ])('tags every %s with the project and the stage', (type) => {
      const resources = Object.values(template.findResources(type));
      expect(resources.length).toBeGreaterThan(0);
      for (const resource of resources) {
        expect(resource.Properties.Tags).toEqual(
          expect.arrayContaining([
            { Key: 'project', Value: 'first-100-days-site' },
            { Key: 'stage', Value: 'staging' },
          ]),
        );
      }
    });

    test("tags DeployAccess's resources with the project and the stage", () => {
      const resources = Object.values(Template.fromStack(deployAccess!).toJSON().Resources) as {
        Properties: { Tags: unknown };
      }[];
      for (const resource of resources) {
        expect(resource.Properties.Tags).toEqual([
          { Key: 'project', Value: 'first-100-days-site' },
          { Key: 'stage', Value: 'staging' },
        ]);
      }
    });
  });
});

describe('every stage of cdk.json, as it deploys', () => {
  const stages = Object.keys(
    (JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: { stages: Record<string, unknown> } }).context.stages,
  );

  test.each(stages)('%s has no SNS topic nobody reads: each has a subscription', (stage) => {
    const { app } = appStacks({ stage });
    const unread: string[] = [];
    for (const stack of app.node.children.filter((child): child is Stack => child instanceof Stack)) {
      const resources = Object.entries(Template.fromStack(stack).toJSON().Resources ?? {}) as [
        string,
        { Type: string; Properties?: { TopicArn?: unknown } },
      ][];
      const subscribed = JSON.stringify(
        resources.filter(([, r]) => r.Type === 'AWS::SNS::Subscription').map(([, r]) => r.Properties?.TopicArn),
      );
      for (const [id, r] of resources)
        if (r.Type === 'AWS::SNS::Topic' && !subscribed.includes(`"${id}"`)) unread.push(`${stack.stackName}/${id}`);
    }
    expect(unread).toEqual([]);
  });
});
