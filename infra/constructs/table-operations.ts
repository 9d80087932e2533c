import { Operation } from 'aws-cdk-lib/aws-dynamodb';
import { eventFunctionList, type EventFunctionTableAction } from '../../core/api/catalogue/event-functions';
import { tableActionsOf, type ProductTable, type TableAction } from '../../core/api/catalogue/routes';

/** Each IAM action as the operation DynamoDB reports its metrics under. */
const operationOfAction: Readonly<Record<TableAction | EventFunctionTableAction, Operation>> = {
  'dynamodb:Scan': Operation.SCAN,
  'dynamodb:PutItem': Operation.PUT_ITEM,
  'dynamodb:GetItem': Operation.GET_ITEM,
  'dynamodb:UpdateItem': Operation.UPDATE_ITEM,
  'dynamodb:DeleteItem': Operation.DELETE_ITEM,
  'dynamodb:Query': Operation.QUERY,
  'dynamodb:BatchGetItem': Operation.BATCH_GET_ITEM,
};

/**
 * The operations the functions call on a table, from the route and event-function catalogues:
 * DynamoDB reports ThrottledRequests and SystemErrors per operation only, so its alarms sum these.
 */
export function tableOperationsOf(
  table: ProductTable,
  { leadHandoff = false }: { readonly leadHandoff?: boolean } = {},
): Operation[] {
  // The hand-off function exists only with mailProvider: without it, its GetItem is no operation of the table's.
  const functions = eventFunctionList.filter((fn) => leadHandoff || fn.name !== 'leadHandoff');
  const eventActions = functions.flatMap((fn) =>
    fn.tableAccess.filter((access) => access.table === table).flatMap((access) => access.actions),
  );
  const actions = [...new Set([...tableActionsOf(table), ...eventActions])];
  return actions.map((action) => operationOfAction[action]);
}
