import {
  attackerFigures,
  attackers,
  concurrencyNeeded,
  defaultLimitSettings,
  launchFigures,
  launchHour,
  launchPeakReadersPerSecond,
  readerRoutes,
  readersPerSecondWithin,
  stageRate,
} from '../../../core/config/launch-capacity';
import { defaultApiThrottle } from '../../../infra/context-defaults';
import { readDoc } from '../../support/docs';

/** New AWS accounts may start at 10 concurrent Lambda executions (AWS's Lambda quotas page). */
const newAccountConcurrency = 10;

const count = (figure: number) => figure.toLocaleString('en-US');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A Markdown table row holding these cells in order, whatever Prettier's padding. */
function row(...cells: string[]): RegExp {
  return new RegExp(`^\\|\\s*${cells.map(escape).join('\\s*\\|\\s*')}\\s*\\|$`, 'm');
}

const launch = launchFigures();

describe('the defaults serve a launch', () => {
  test("the routes' throttles serve the launch's peak of readers a second, and its hour", () => {
    expect(launch.readersPerSecondServed).toBeGreaterThanOrEqual(launchPeakReadersPerSecond);
    expect(launch.readersPerHourServed).toBeGreaterThanOrEqual(launchHour.readers);
  });

  test("the daily send budget covers the launch hour's readers", () => {
    expect(launch.sendsPerDayAllowed).toBeGreaterThanOrEqual(launchHour.readers);
  });

  test("the stage's default rate is the routes' rates added up", () => {
    expect(defaultApiThrottle.rateLimit).toBe(stageRate());
  });

  test("a new account's 10 concurrent executions hold the peak and the stage's full default rate", () => {
    expect(launch.concurrencyAtPeak).toBeLessThanOrEqual(newAccountConcurrency);
    expect(concurrencyNeeded(defaultApiThrottle.rateLimit)).toBeLessThanOrEqual(newAccountConcurrency);
  });
});

describe('an attacker stays bounded', () => {
  test.each(attackers.map((attacker) => [attacker.name, attacker] as const))(
    '%s sends no more in 24 hours than the daily send budget',
    (_, attacker) => {
      expect(attackerFigures(attacker).sendsPerDay).toBeLessThanOrEqual(defaultLimitSettings.dailySendBudget);
    },
  );

  test('one /24 alone cannot spend the daily send budget in 24 hours', () => {
    const network = attackers.find(({ name }) => name === 'one /24')!;
    expect(attackerFigures(network).sendsPerDay).toBeLessThan(defaultLimitSettings.dailySendBudget);
  });
});

test("docs/deploy.md's table of context values gives the stage's throttle and the budget as defaulted", () => {
  const deploy = readDoc('deploy.md');
  expect(deploy).toMatch(row('`apiRateLimit`', 'no', `\`${defaultApiThrottle.rateLimit}\``));
  expect(deploy).toMatch(row('`apiBurstLimit`', 'no', `\`${defaultApiThrottle.burstLimit}\``));
  expect(deploy).toMatch(row('`dailySendBudget`', 'no', `\`${defaultLimitSettings.dailySendBudget}\``));
});

describe('docs/capacity.md', () => {
  const capacity = readDoc('capacity.md');

  test('gives what the product needs of each quota, as computed', () => {
    expect(capacity).toMatch(
      row(
        "API Gateway, the account's throttle",
        '10,000 a second (2,500 in newer Regions), burst 5,000',
        `the stage's ${stageRate()} a second`,
      ),
    );
    expect(capacity).toContain(
      `${readerRoutes.length} a reader and 1 a view: ${launch.readersPerSecondServed} readers a second`,
    );
    expect(capacity).toContain(
      `${launch.concurrencyAtStageRate} at the stage's full rate, ${launch.concurrencyAtPeak} at a launch's peak`,
    );
    expect(capacity).toContain(`${launch.sesRateNeeded} a second to send a launch hour within the hour`);
  });

  test("says at what rate of readers the throttles and a new account's concurrency fill", () => {
    expect(capacity).toContain(`**The routes' throttles, at ${launch.readersPerSecondServed} readers a second**`);
    expect(capacity).toContain(
      `**Lambda's concurrency, at about ${readersPerSecondWithin(newAccountConcurrency)} readers a second in a new account of ${newAccountConcurrency}**`,
    );
    expect(readersPerSecondWithin(newAccountConcurrency)).toBeGreaterThan(launch.readersPerSecondServed);
  });
});

describe("docs/abuse.md's side-by-side figures", () => {
  const abuse = readDoc('abuse.md');

  test('give the launch what the defaults allow it, as computed', () => {
    expect(abuse).toMatch(
      row(
        `${launchPeakReadersPerSecond} readers a second at the peak`,
        `${launch.readersPerSecondServed} readers a second through the routes' throttles`,
      ),
    );
    expect(abuse).toMatch(
      row(
        `${count(launchHour.readers)} readers in the hour`,
        `${count(launch.readersPerHourServed)} an hour through the throttles`,
      ),
    );
    expect(abuse).toMatch(
      row(
        `${count(launchHour.readers)} sends in 24 hours`,
        `${count(launch.sendsPerDayAllowed)} (the daily send budget)`,
      ),
    );
    expect(abuse).toMatch(
      row(
        `${launch.concurrencyAtPeak} concurrent Lambda executions at the peak`,
        `${newAccountConcurrency} in a new account (${launch.concurrencyAtStageRate} at the stage's full rate)`,
      ),
    );
    expect(abuse).toMatch(
      row(
        `${launch.sesRateNeeded} e-mails a second from SES, the hour sent within it`,
        "the account's own rate (`npm run preflight`)",
      ),
    );
  });

  test.each(attackers.map((attacker) => [attacker.name, attacker] as const))(
    'give what %s can send and save, as computed',
    (name, attacker) => {
      const figures = attackerFigures(attacker);
      expect(abuse).toMatch(
        new RegExp(
          `^\\| ${escape(name)}[^|]*${row(
            count(figures.sendsPerHour),
            count(figures.sendsPerDay),
            count(figures.mailboxesPerDay),
            count(figures.savesPerHour),
            count(figures.savesPerDay),
          ).source.slice(1)}`,
          'm',
        ),
      );
    },
  );
});
