/** Markdown table cells: no pipes or line breaks inside. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A Markdown table, or `_None._` when there is no row. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '_None._\n';
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
    '',
  ].join('\n');
}
