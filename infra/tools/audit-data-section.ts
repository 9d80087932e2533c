import { flowDescribers } from './audit-data-flows';
import { storeDescribers } from './audit-data-stores';
import { resourcesOfType, type StackView } from './cloudformation-template';
import { table } from './markdown-table';

const dataDescribers = { ...storeDescribers, ...flowDescribers };

/** The audit report's table of everything that holds or moves data, and how it is protected. */
export function dataSection(views: readonly StackView[]): string {
  const rows = views.flatMap((view) =>
    Object.entries(dataDescribers).flatMap(([type, describe]) =>
      resourcesOfType(view, type).map(([id, resource]) => {
        const row = describe(view, id, resource);
        return [
          `\`${id}\``,
          row.type,
          `\`${view.paths.get(id) ?? ''}\``,
          row.encryption,
          row.logging,
          row.retention,
          row.exposure,
        ];
      }),
    ),
  );
  return [
    '## What holds or moves data, and how it is protected',
    '',
    'Buckets, tables, log groups, KMS keys, topics, secrets, functions, the distribution, the API and the SES configuration set, read from the templates.',
    '',
    table(
      [
        'resource',
        'kind',
        'construct path',
        'encryption',
        'logging',
        'retention, and on stack deletion',
        'public exposure',
      ],
      rows,
    ),
  ].join('\n');
}
