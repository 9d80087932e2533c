/**
 * Each service edge's negatives: the same request from a source the resource's policy must refuse.
 * An edge that names its source (`aws:SourceArn`, `aws:SourceAccount`) is asked again as the same
 * kind of source of another stack (its name changed), and as one of another account; each must be
 * refused, or the policy admits every alarm, rule or distribution of the account, or of AWS.
 * A refusal names the edge, the source and the resource policy's statements that let it through.
 */
import { judge, type Policies, type Request } from './judge';
import type { Edge } from './service-edges';

/** The account no stack of the product is in. */
export const otherAccount = '999999999999';

export interface NegativeEdge {
  readonly description: string;
  readonly request: Request;
  readonly policies: Policies;
}

/** The source ARN with its resource's name replaced: `…:alarm:Stack-Name` → `…:alarm:OtherStack-Name`. */
export function anotherSourceOfTheSameKind(arn: string): string {
  const match = /^(.*[:/])([^:/]+)$/.exec(arn);
  return match ? `${match[1]}OtherStack-${match[2]}` : `${arn}-OtherStack`;
}

/** The negatives of every edge that names its source. */
export function negativeEdges(edges: readonly Edge[]): NegativeEdge[] {
  return edges.flatMap((edge) => {
    const context = edge.request.context ?? {};
    const sourceArn = context['aws:SourceArn'];
    // Lambda assuming a function's role sends no source: the role is the function's alone (trust-expectations.ts).
    if (typeof sourceArn !== 'string' || !edge.policies.resource || edge.request.action.startsWith('sts:')) return [];
    const account = String(context['aws:SourceAccount'] ?? sourceArn.split(':')[4]);
    const other = anotherSourceOfTheSameKind(sourceArn);
    // Every value naming the source changes with it: CloudWatch Logs' encryption context names its log group.
    const withSource = (arn: string, sourceAccount: string): Request => ({
      ...edge.request,
      context: {
        ...Object.fromEntries(Object.entries(context).map(([key, value]) => [key, value === sourceArn ? arn : value])),
        'aws:SourceArn': arn,
        'aws:SourceAccount': sourceAccount,
      },
    });
    return [
      {
        description: `${edge.description}, asked by ${other} (another stack's)`,
        request: withSource(other, account),
        policies: edge.policies,
      },
      {
        description: `${edge.description}, asked from account ${otherAccount}`,
        request: withSource(sourceArn.replace(`:${account}:`, `:${otherAccount}:`), otherAccount),
        policies: edge.policies,
      },
    ];
  });
}

/** Each negative the resource's policy allows, with the statements that allow it. */
export async function admittedNegatives(edges: readonly Edge[]): Promise<{ judged: number; refusals: string[] }> {
  const refusals: string[] = [];
  const negatives = negativeEdges(edges);
  for (const negative of negatives) {
    if (!(await judge(negative.request, negative.policies)).allowed) continue;
    const resource = negative.policies.resource!;
    const admitting: number[] = [];
    for (const [index, statement] of resource.Statement.entries()) {
      if (statement.Effect !== 'Allow') continue;
      const alone = { ...negative.policies, resource: { ...resource, Statement: [statement] } };
      if ((await judge(negative.request, alone)).allowed) admitting.push(index);
    }
    refusals.push(
      `${negative.description}: allowed by the resource policy's statement ${admitting.join(', ') || '?'} (it must name its source)`,
    );
  }
  return { judged: negatives.length, refusals };
}
