/**
 * Clean stops for `npm start` and `npm run dev`: SIGINT (Ctrl-C) and SIGTERM run the registered
 * stop functions once, then exit 0. A signal during start-up is held until the stack is up,
 * so its servers and temp directory are still cleaned up.
 */

export interface Shutdown {
  /** Registers what to stop; if a signal already came, stops at once. */
  onStop(stop: () => Promise<void>): void;
}

export function stopOnSignals(): Shutdown {
  const stops: Array<() => Promise<void>> = [];
  let signalled = false;
  let stopping = false;

  const stopAll = async () => {
    if (stopping) return;
    stopping = true;
    let exitCode = 0;
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error('While stopping:', error);
        exitCode = 1;
      }
    }
    process.exit(exitCode);
  };

  const onSignal = () => {
    signalled = true;
    if (stops.length > 0) void stopAll();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  return {
    onStop(stop) {
      stops.push(stop);
      if (signalled) void stopAll();
    },
  };
}
