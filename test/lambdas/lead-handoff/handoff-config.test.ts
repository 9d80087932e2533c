/** The hand-off's settings from its variables: double opt-in stays on unless the deployment says `off`. */

import { readLeadHandoffConfig } from '../../../lambdas/lead-handoff/handoff-config';

const variables = {
  TABLE_NAME: 'cheat_sheet_requests',
  MAIL_PROVIDER: 'mailchimp',
  MAIL_PROVIDER_LIST: 'a1b2c3d4e5',
  MAIL_PROVIDER_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:provider-key',
  LEAD_HANDOFF_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/lead-handoff',
  LEAD_HANDOFF_DEAD_LETTER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/lead-handoff-dead-letters',
};

test('without MAIL_PROVIDER_DOUBLE_OPT_IN, the provider is asked for its double opt-in', () => {
  expect(readLeadHandoffConfig(variables).doubleOptIn).toBe(true);
});

test('MAIL_PROVIDER_DOUBLE_OPT_IN=off hands readers off as confirmed', () => {
  expect(readLeadHandoffConfig({ ...variables, MAIL_PROVIDER_DOUBLE_OPT_IN: 'off' }).doubleOptIn).toBe(false);
});
