import net from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  PortInUseError,
  startDynamoDbEmulator,
  startS3Emulator,
  startSesEmulator,
  type RunningServer,
} from '../../local/emulators';

let blocker: net.Server;
let busyPort: number;
let s3Directory: string;

beforeAll(async () => {
  blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  busyPort = (blocker.address() as net.AddressInfo).port;
  s3Directory = await mkdtemp(path.join(os.tmpdir(), 'emulators-test-'));
});
afterAll(async () => {
  await new Promise((resolve) => blocker.close(resolve));
  await rm(s3Directory, { recursive: true, force: true });
});

const emulators: Array<[string, (port: number) => Promise<RunningServer>]> = [
  ['dynalite', (port) => startDynamoDbEmulator(port)],
  ['s3rver', (port) => startS3Emulator(port, s3Directory)],
  ['aws-ses-v2-local', (port) => startSesEmulator(port)],
];

describe.each(emulators)('%s', (_, start) => {
  test('starts on a free port on 127.0.0.1 and stops', async () => {
    const emulator = await start(0);

    expect(emulator.url).toBe(`http://127.0.0.1:${emulator.port}`);
    const response = await fetch(emulator.url);
    expect(response.status).toBeGreaterThan(0);
    await emulator.close();
    await expect(fetch(emulator.url)).rejects.toThrow();
  });

  test('fails with PortInUseError, promptly, when its port is taken', async () => {
    await expect(start(busyPort)).rejects.toEqual(new PortInUseError(busyPort));
  });
});
