/**
 * Counts one visit to `/` in the day's funnel item (core/data/funnel.ts), and the visitor once a
 * day: the keyed hash of the day, the client's network and its user agent, under the day's random
 * salt, is written once (a conditional PutItem); the first write of a hash counts a unique visitor.
 * Neither the address nor the user agent is stored. The salt and the hashes live in the funnel
 * visitors' table, which no backup keeps (core/data/tables.ts); they expire at the day's end
 * (DynamoDB's TTL), and the first visit of the next day deletes the day before's salt at once,
 * since TTL may take a day or two to delete an expired item:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html
 * The day's counts, two numbers, go to the limit counters' table, kept 400 days.
 */

import { createHmac, randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import {
  dayOf,
  endOfDaySeconds,
  funnelDayId,
  funnelRetentionDays,
  lastDays,
  visitorMarkId,
  visitorSaltId,
  type FunnelDayKey,
} from '../../core/data/funnel';
import {
  funnelVisitorsExpiryAttribute,
  funnelVisitorsPartitionKey,
  limitCountersExpiryAttribute,
  limitCountersPartitionKey,
} from '../../core/data/tables';

/** Who the visitor is, for the day's hash only: never stored. */
export interface Visitor {
  /** The client's network (its IPv4 address or IPv6 /64: lambdas/limits/client-address.ts). */
  readonly network: string;
  readonly userAgent: string;
}

export interface VisitCounter {
  /** Counts the visit; true when it is the visitor's first of the day. */
  count(visitor: Visitor, now?: Date): Promise<{ readonly uniqueVisitor: boolean }>;
}

/** Where the visit counter writes: the day's counts, and the day's salt and visitor marks. */
export interface VisitCounterTables {
  /** The limit counters' table: `funnel#<day>`, kept `funnelRetentionDays`. */
  readonly countsTableName: string;
  /** The funnel visitors' table: the salt and the marks, gone with the day. */
  readonly visitorsTableName: string;
}

const idKey = funnelVisitorsPartitionKey;
const expiry = funnelVisitorsExpiryAttribute;

/** The salt of each day, read or made once per container and day. */
function saltStore(client: DynamoDBDocumentClient, tableName: string, newSalt: () => string) {
  let cached: { readonly day: FunnelDayKey; readonly salt: string } | undefined;
  const read = async (day: FunnelDayKey) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: { [idKey]: visitorSaltId(day) }, ConsistentRead: true }),
    );
    return Item?.salt as string | undefined;
  };
  const create = async (day: FunnelDayKey): Promise<string> => {
    const salt = newSalt();
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: { [idKey]: visitorSaltId(day), salt, [expiry]: endOfDaySeconds(day) },
          ConditionExpression: 'attribute_not_exists(#id)',
          ExpressionAttributeNames: { '#id': idKey },
        }),
      );
    } catch (error) {
      // Another container made the day's salt first: theirs is the day's.
      if (error instanceof ConditionalCheckFailedException) return (await read(day))!;
      throw error;
    }
    // The day before's salt goes now, not when TTL gets to it.
    const [yesterday] = lastDays(new Date(Date.parse(`${day}T00:00:00.000Z`)), 2);
    await client.send(new DeleteCommand({ TableName: tableName, Key: { [idKey]: visitorSaltId(yesterday) } }));
    return salt;
  };
  return async (day: FunnelDayKey): Promise<string> => {
    if (cached?.day === day) return cached.salt;
    const salt = (await read(day)) ?? (await create(day));
    cached = { day, salt };
    return salt;
  };
}

/** The visitor's hash for the day: HMAC-SHA-256 under the day's salt. */
export function visitorHash(salt: string, day: FunnelDayKey, { network, userAgent }: Visitor): string {
  return createHmac('sha256', salt).update(`${day}\n${network}\n${userAgent}`).digest('hex');
}

export function visitCounter(
  client: DynamoDBDocumentClient,
  { countsTableName, visitorsTableName }: VisitCounterTables,
  newSalt: () => string = () => randomBytes(32).toString('hex'),
): VisitCounter {
  const saltOf = saltStore(client, visitorsTableName, newSalt);
  return {
    async count(visitor, now = new Date()) {
      const day = dayOf(now);
      const hash = visitorHash(await saltOf(day), day, visitor);
      let uniqueVisitor = true;
      try {
        await client.send(
          new PutCommand({
            TableName: visitorsTableName,
            Item: { [idKey]: visitorMarkId(day, hash), [expiry]: endOfDaySeconds(day) },
            ConditionExpression: 'attribute_not_exists(#id)',
            ExpressionAttributeNames: { '#id': idKey },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        uniqueVisitor = false;
      }
      await client.send(
        new UpdateCommand({
          TableName: countsTableName,
          Key: { [limitCountersPartitionKey]: funnelDayId(day) },
          UpdateExpression: 'ADD visits :one, unique_visitors :unique SET #expiry = :expiry',
          ExpressionAttributeNames: { '#expiry': limitCountersExpiryAttribute },
          ExpressionAttributeValues: {
            ':one': 1,
            ':unique': uniqueVisitor ? 1 : 0,
            ':expiry': endOfDaySeconds(day) + funnelRetentionDays * 86_400,
          },
        }),
      );
      return { uniqueVisitor };
    },
  };
}
