/**
 * The author's placeholders (core/content/placeholders.ts): a warning, never a failure, since
 * the account can take the stack either way; the site would only go live with stand-ins.
 */

import type { CheckResult } from './check-result';

export function checkContentPlaceholders(placeholders: readonly string[]): CheckResult {
  if (placeholders.length === 0) {
    return { name: 'content', status: 'PASS', detail: 'no placeholder left in content/' };
  }
  return {
    name: 'content',
    status: 'WARN',
    detail: `placeholders still in content/: ${placeholders.join(', ')}`,
    fix: "replace each with the real one (docs/author.md, 'Before launch: your own material'), then build again.",
  };
}
