/** `npm run load -- --rate R --duration S [--url SITE] [--mail MAIL]`: distinct readers against a site (ops/load/). */
import { formatLoadReport, runLoad } from '../ops/load/load-run';
import { parseLoadArguments } from '../ops/load/load-command';
import { startLoadTwin } from '../local/load-twin';

const parsed = parseLoadArguments(process.argv.slice(2));
if ('error' in parsed) {
  console.error(parsed.error);
  process.exit(2);
}
const twin =
  parsed.url === undefined ? await startLoadTwin(Math.ceil(parsed.rate * parsed.durationSeconds)) : undefined;
try {
  const siteUrl = parsed.url ?? twin!.urls.site.replace('localhost', '127.0.0.1');
  const mailUrl = parsed.mail ?? twin?.urls.mail;
  const report = await runLoad({ rate: parsed.rate, durationSeconds: parsed.durationSeconds, siteUrl, mailUrl });
  console.log(formatLoadReport(report, parsed));
} finally {
  await twin?.stop();
}
