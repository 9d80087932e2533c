import type { StackView, TemplateResource } from './cloudformation-template';

/** One row of the audit report's data table. */
export interface DataRow {
  readonly type: string;
  readonly encryption: string;
  readonly logging: string;
  readonly retention: string;
  readonly exposure: string;
}

export type DataDescriber = (view: StackView, id: string, resource: TemplateResource) => DataRow;
