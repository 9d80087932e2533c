import { Duration } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HttpApi, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { MonitoringDashboard } from '../../../../infra/constructs/monitoring/dashboard';
import { standaloneAlarm } from '../../support/alarms';
import { alarmStack } from '../../support/bare-stack';

function dashboardBody(sesConfigurationSet?: { name: string; dimensionName: string }): string {
  const { stack } = alarmStack();
  const httpApi = new HttpApi(stack, 'Api', { createDefaultStage: false });
  const stage = new HttpStage(stack, 'Stage', { httpApi, stageName: '$default' });
  const distribution = new Distribution(stack, 'Distribution', {
    defaultBehavior: { origin: new HttpOrigin('example.com') },
  });
  const fn = new LambdaFunction(stack, 'SaveRequestFunction', {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('exports.handler = async () => ({});'),
  });
  new MonitoringDashboard(stack, 'Dashboard', {
    alarms: [standaloneAlarm(stack, 'ListedAlarm')],
    stage,
    functions: [
      {
        function: fn,
        name: 'save-request',
        services: ['save-request'],
        route: '/api/save-request',
        method: 'POST',
        timeout: Duration.seconds(10),
      },
    ],
    tables: [],
    distribution,
    sesConfigurationSet,
  });
  const [dashboard] = Object.values(Template.fromStack(stack).findResources('AWS::CloudWatch::Dashboard'));
  return JSON.stringify(dashboard.Properties.DashboardBody);
}

describe('the dashboard', () => {
  test('lists the alarms it is given in its status widget', () => {
    expect(dashboardBody()).toContain('ListedAlarm');
  });

  test("graphs the funnel, refusals and failures of each function's service", () => {
    const body = dashboardBody();
    for (const text of ['Funnel per hour', 'RequestSaved (save-request)', 'HoneypotCaught (save-request)']) {
      expect(body).toContain(text);
    }
    expect(body).toContain('StorageUnavailable (save-request)');
  });

  test('reads CloudFront in us-east-1 wherever the stack is', () => {
    expect(dashboardBody()).toContain('\\"region\\":\\"us-east-1\\"');
  });

  test("graphs the configuration set's events by its dimension when given one, else the account's", () => {
    expect(dashboardBody()).toContain('SES delivery events (whole account)');
    const body = dashboardBody({ name: 'cheat-sheet-mail', dimensionName: 'ses:configuration-set' });
    expect(body).toContain('ses:configuration-set');
    expect(body).toContain('cheat-sheet-mail');
  });

  test('points the operator at docs/operate.md for what to do', () => {
    const body = dashboardBody();
    expect(body).toContain('docs/operate.md says what to do for each alarm');
    expect(body).not.toContain('README');
  });

  test("graphs the account's bounce and complaint rates, marked where SES reviews and where sending pauses", () => {
    const body = dashboardBody({ name: 'cheat-sheet-mail', dimensionName: 'ses:configuration-set' });
    expect(body).toContain('\\"value\\":0.05,\\"label\\":\\"Bounce review\\"');
    expect(body).toContain('\\"value\\":0.04,\\"label\\":\\"Sending paused\\"');
    expect(body).toContain('\\"value\\":0.0008,\\"label\\":\\"Sending paused\\"');
  });
});
