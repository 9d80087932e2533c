import { Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { CatalogueFunction, ProductTable, TableAction } from '../../core/api/catalogue/function-entry';
import { functionList, tableActionsOf } from '../../core/api/catalogue/functions';

/** Each IAM action as the operation DynamoDB reports its metrics under. */
const operationOfAction: Readonly<Record<TableAction, Operation>> = {
  'dynamodb:Scan': Operation.SCAN,
  'dynamodb:PutItem': Operation.PUT_ITEM,
  'dynamodb:GetItem': Operation.GET_ITEM,
  'dynamodb:UpdateItem': Operation.UPDATE_ITEM,
  'dynamodb:DeleteItem': Operation.DELETE_ITEM,
  'dynamodb:Query': Operation.QUERY,
  'dynamodb:BatchGetItem': Operation.BATCH_GET_ITEM,
};

/**
 * The operations the functions call on a table, from the catalogue of functions (or a test's copy
 * of it): DynamoDB reports ThrottledRequests and SystemErrors per operation only, so its alarms sum these.
 */
export function tableOperationsOf(
  table: ProductTable,
  functions: readonly Pick<CatalogueFunction, 'tableAccess'>[] = functionList,
): Operation[] {
  return tableActionsOf(table, functions).map((action) => operationOfAction[action]);
}
