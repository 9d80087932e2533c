import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Api } from '../../../infra/constructs/api';
import { bareStack } from '../support/bare-stack';

/** The Api in a stack of its own, with only what it needs. */
function apiTemplate(): Template {
  const stack = bareStack();
  const table = (id: string) => new Table(stack, id, { partitionKey: { name: 'id', type: AttributeType.STRING } });
  new Api(stack, 'Api', {
    table: table('RequestsTable'),
    limitCountersTable: table('LimitCountersTable'),
    emailIndexName: 'email-index',
    cheatSheetBucket: new Bucket(stack, 'CheatSheetBucket'),
    cheatSheetKey: 'cheat-sheet.pdf',
    senderEmail: 'cheatsheet@example.com',
    senderIdentityArn: 'arn:aws:ses:eu-west-1:111122223333:identity/example.com',
    configurationSetName: 'product-set',
    configurationSetArn: 'arn:aws:ses:eu-west-1:111122223333:configuration-set/product-set',
    originSecret: new Secret(stack, 'OriginSecret'),
    throttle: { rateLimit: 10, burstLimit: 20 },
    addressDailyCap: 3,
    clientHourlyCap: 10,
    dailySendBudget: 500,
    encryptionKey: new Key(stack, 'Key'),
  });
  return Template.fromStack(stack);
}

type RouteSettings = Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;

function stageProperties(template: Template) {
  const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as {
    Properties: { RouteSettings: RouteSettings; DefaultRouteSettings: Record<string, unknown> };
    DependsOn?: string[];
  }[];
  return stage;
}

describe('the API', () => {
  test.each([
    ['/api/cheat-sheet-requests', 4, 8],
    ['/api/send-cheat-sheet', 4, 8],
    ['/api/cheat-sheet-form', 2, 4],
  ])('throttles %s on its own, at %i a second with a burst of %i, for POST and its ANY twin', (path, rate, burst) => {
    const settings = stageProperties(apiTemplate()).Properties.RouteSettings;
    for (const method of ['POST', 'ANY']) {
      expect([method, settings[`${method} ${path}`]]).toEqual([
        method,
        expect.objectContaining({ ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst }),
      ]);
    }
  });

  test("keeps the stage-wide default throttle, which the routes' rates add up to", () => {
    const stage = stageProperties(apiTemplate());
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 });
    const rates = Object.entries(stage.Properties.RouteSettings)
      .filter(([routeKey]) => routeKey.startsWith('POST '))
      .map(([, { ThrottlingRateLimit }]) => ThrottlingRateLimit);
    expect(rates.reduce((sum, rate) => sum + rate, 0)).toBe(10);
  });

  test('creates the stage once the routes its settings name exist', () => {
    const template = apiTemplate();
    const routeIds = Object.keys(template.findResources('AWS::ApiGatewayV2::Route'));
    expect(routeIds).toHaveLength(6);
    expect(stageProperties(template).DependsOn).toEqual(expect.arrayContaining(routeIds));
  });
});
