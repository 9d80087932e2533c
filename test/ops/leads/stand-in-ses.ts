/**
 * A stand-in for SES v2's suppression list on a local port, as the real endpoint answers
 * DeleteSuppressedDestination (REST-JSON: `DELETE /v2/email/suppression/addresses/{address}`):
 * 200 for an address on the list (and takes it off), 404 NotFoundException for one that is not,
 * and a 500 for the addresses told to fail. aws-ses-v2-local has no suppression list.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInSes {
  readonly url: string;
  /** The addresses still on the list. */
  readonly suppressed: Set<string>;
  /** Every address a DeleteSuppressedDestination named, in order. */
  readonly deleteCalls: string[];
  close(): Promise<void>;
}

const suppressionPath = '/v2/email/suppression/addresses/';

export async function startStandInSes(
  onList: readonly string[],
  { failing = [] }: { failing?: readonly string[] } = {},
): Promise<StandInSes> {
  const suppressed = new Set(onList);
  const deleteCalls: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    const path = request.url ?? '';
    const reply = (status: number, type?: string, message = '') => {
      response.writeHead(status, {
        'content-type': 'application/json',
        ...(type === undefined ? {} : { 'x-amzn-errortype': type }),
      });
      response.end(type === undefined ? '{}' : JSON.stringify({ message }));
    };
    if (request.method !== 'DELETE' || !path.startsWith(suppressionPath)) return reply(400, 'BadRequestException');
    const address = decodeURIComponent(path.slice(suppressionPath.length));
    deleteCalls.push(address);
    if (failing.includes(address)) return reply(500, 'InternalServiceErrorException', 'stand-in failure');
    if (!suppressed.delete(address))
      return reply(404, 'NotFoundException', `${address} is not on the suppression list`);
    return reply(200);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    suppressed,
    deleteCalls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
