/** Ports on 127.0.0.1 for tests: free ones, a taken one, and whether something listens. */

import net from 'node:net';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Holds a port until released. */
export async function occupyPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** TCP servers of this process that still hold a port (other jest workers cannot affect it). */
export function serversInThisProcess(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'TCPServerWrap').length;
}

/** The count once servers closed just before (by an earlier test) have dropped their handles. */
export async function settledServersInThisProcess(): Promise<number> {
  let previous = -1;
  let current = serversInThisProcess();
  while (current !== previous) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    [previous, current] = [current, serversInThisProcess()];
  }
  return current;
}

/**
 * The number of this process's TCP servers once it settles at `expected`, or after `timeoutMs`
 * (Node drops a closed server's handle a loop turn after its close callback).
 */
export async function serversInThisProcessSettlingAt(expected: number, timeoutMs = 2_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (serversInThisProcess() !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return serversInThisProcess();
}
