/**
 * The site's address is written in two places the author and the operator each own:
 * `content/site.yaml`'s `address` (every cheat-sheet e-mail links to it) and each stage's
 * `siteUrl` in cdk.json (the build's SITE_URL: the pages' canonical address and sitemap). A
 * production build refuses them differing, so a reader is never sent to an address the site does
 * not answer at; staging has an address of its own, so only production's is compared.
 */

import { liveStage } from './placeholders';

/** Why a production build with `siteUrl` must stop, or null when the two agree (or the stage is not production). */
export function siteAddressMismatch(
  siteUrl: string,
  contentAddress: string,
  stage: string | undefined,
): string | null {
  if (stage !== undefined && stage !== liveStage) return null;
  const bare = (address: string) => address.toLowerCase().replace(/\/+$/, '');
  if (bare(siteUrl) === bare(contentAddress)) return null;
  return [
    "The site's address is written twice, and the two differ:",
    `  content/site.yaml, address: ${contentAddress} (every cheat-sheet e-mail links here)`,
    `  cdk.json, stages.${liveStage}.siteUrl: ${siteUrl} (the pages' canonical address)`,
    'Make them the same address, the one the site answers at (docs/author.md, "Before launch: your own material").',
  ].join('\n');
}
