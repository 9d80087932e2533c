import { Operation } from 'aws-cdk-lib/aws-dynamodb';
import { tableActionsOf, type ProductTable, type TableAction } from '../../core/api/catalogue/routes';

/** Each IAM action as the operation DynamoDB reports its metrics under. */
const operationOfAction: Readonly<Record<TableAction, Operation>> = {
  'dynamodb:PutItem': Operation.PUT_ITEM,
  'dynamodb:GetItem': Operation.GET_ITEM,
  'dynamodb:UpdateItem': Operation.UPDATE_ITEM,
  'dynamodb:Query': Operation.QUERY,
  'dynamodb:BatchGetItem': Operation.BATCH_GET_ITEM,
};

/**
 * The operations the functions call on a table, from the route catalogue: DynamoDB reports
 * ThrottledRequests and SystemErrors per operation only, so its alarms sum these.
 */
export function tableOperationsOf(table: ProductTable): Operation[] {
  return tableActionsOf(table).map((action) => operationOfAction[action]);
}
