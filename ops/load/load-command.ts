/**
 * `npm run load -- --rate R --duration S [--url SITE] [--mail MAIL]`: its arguments. Without
 * `--url` the command starts a local twin of its own (local/load-twin.ts) and reads its SES.
 */

export interface LoadArguments {
  readonly rate: number;
  readonly durationSeconds: number;
  readonly url?: string;
  readonly mail?: string;
}

export const loadUsage =
  'usage: npm run load -- --rate R --duration S [--url SITE] [--mail MAIL]\n' +
  '  R readers a second for S seconds, against SITE (default: a local twin the command starts);\n' +
  "  MAIL: the site's local SES page, whose store the e-mails are counted from (the twin's by default).";

/** The arguments, or a message saying what is wrong. */
export function parseLoadArguments(argv: readonly string[]): LoadArguments | { readonly error: string } {
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 2) {
    const [flag, value] = [argv[index], argv[index + 1]];
    if (!['--rate', '--duration', '--url', '--mail'].includes(flag) || value === undefined) {
      return { error: `unknown or incomplete argument ${flag}\n${loadUsage}` };
    }
    values.set(flag, value);
  }
  const rate = Number(values.get('--rate'));
  const durationSeconds = Number(values.get('--duration'));
  if (!(rate > 0) || !(durationSeconds > 0))
    return { error: `--rate and --duration must be positive numbers\n${loadUsage}` };
  const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
  const url = values.get('--url');
  const mail = values.get('--mail');
  return {
    rate,
    durationSeconds,
    ...(url !== undefined && { url: withSlash(url) }),
    ...(mail !== undefined && { mail: withSlash(mail) }),
  };
}
