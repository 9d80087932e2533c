/**
 * The three AWS emulators, each on 127.0.0.1 and a given port (0 = a free one), each failing
 * with a PortInUseError when its port is taken. They fail differently by themselves (dynalite
 * throws from an unhandled 'error' event, s3rver's run() never settles, aws-ses-v2-local resolves
 * with a server that is not listening), so dynalite and s3rver get an HTTP server we listen on
 * ourselves, and aws-ses-v2-local's `listening` flag is checked.
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const emulatorHost = '127.0.0.1';

export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  constructor(readonly port: number) {
    super(`Port ${port} is already in use`);
  }
}

export interface RunningServer {
  readonly port: number;
  /** The address the SDK should call: 127.0.0.1, so S3 uses path-style addressing. */
  readonly url: string;
  close(): Promise<void>;
}

/** Listens, resolving with the real port; a taken port becomes a PortInUseError. */
export function listen(server: http.Server, port: number, host: string = emulatorHost): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port) : error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Stops accepting, and ends kept-alive connections (the SDK's, a browser's) instead of waiting for them. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

function running(
  server: http.Server,
  port: number,
  close: () => Promise<void> = () => closeServer(server),
): RunningServer {
  return { port, url: `http://${emulatorHost}:${port}`, close };
}

/** Modules compiled from ES modules export `default`; Node's ESM loader hands CommonJS `module.exports` over whole. */
function defaultExport<T>(module: { default: T }): T {
  const value = module.default as T | { default: T };
  return typeof value === 'object' && value !== null && 'default' in value ? value.default : value;
}

/** DynamoDB: dynalite, in memory, tables ACTIVE as soon as they are created. */
export async function startDynamoDbEmulator(port: number): Promise<RunningServer> {
  const dynalite = defaultExport(await import('dynalite'));
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  return running(server, await listen(server, port));
}

/** S3: s3rver, storing objects under `directory` (the caller owns and removes it). */
export async function startS3Emulator(port: number, directory: string): Promise<RunningServer> {
  const S3rver = defaultExport(await import('s3rver'));
  const s3rver = new S3rver({ directory, silent: true });
  const server = http.createServer(s3rver.callback());
  return running(server, await listen(server, port));
}

/** SES: aws-ses-v2-local; `GET <url>/store` lists what it captured. */
export async function startSesEmulator(port: number): Promise<RunningServer> {
  const startSes = defaultExport(await import('aws-ses-v2-local'));
  const server = await startSes({ host: emulatorHost, port });
  if (!server.listening) throw new PortInUseError(port);
  return running(server, (server.address() as AddressInfo).port);
}
