/** Finding the configuration set in a stack's resources (CloudFormation mocked). */

import { CloudFormationClient, ListStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { configurationSetOfStack, StackConfigurationSetError } from '../../../ops/sending/configuration-set';

const cloudFormation = new CloudFormationClient({ region: 'us-east-1' });
const cloudFormationMock = mockClient(cloudFormation);

afterEach(() => cloudFormationMock.reset());
afterAll(() => cloudFormationMock.restore());

const configurationSet = (PhysicalResourceId: string) => ({
  ResourceType: 'AWS::SES::ConfigurationSet',
  PhysicalResourceId,
  LogicalResourceId: 'MailConfigurationSet',
  ResourceStatus: 'CREATE_COMPLETE' as const,
  LastUpdatedTimestamp: new Date(),
});

test("is the physical id of the stack's one AWS::SES::ConfigurationSet", async () => {
  cloudFormationMock.on(ListStackResourcesCommand).resolves({ StackResourceSummaries: [configurationSet('set-1')] });

  expect(await configurationSetOfStack(cloudFormation, 'First100DaysSite')).toBe('set-1');
});

test('refuses to choose between two configuration sets', async () => {
  cloudFormationMock
    .on(ListStackResourcesCommand)
    .resolves({ StackResourceSummaries: [configurationSet('set-1'), configurationSet('set-2')] });

  await expect(configurationSetOfStack(cloudFormation, 'Twice')).rejects.toThrow(
    new StackConfigurationSetError("The stack Twice has 2 SES configuration sets: is it this product's stack?"),
  );
});
