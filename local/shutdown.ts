/**
 * Clean stops for `npm start` and `npm run dev`: SIGINT (Ctrl-C) and SIGTERM exit 0 at any moment
 * after the entry's first line, having stopped whatever was started. The entries call
 * `stopOnSignals()` before they load anything else (the rest of the product is imported after it,
 * so a signal while those modules load is caught too). A signal while a start-up step runs is
 * held until the step ends, so its servers and temp directory are stopped and removed, not
 * abandoned half-started.
 */

export interface Shutdown {
  /**
   * Runs one start-up step and registers how to stop what it started. A signal before the step
   * exits at once (nothing more is started); a signal during it stops everything once it is done.
   */
  start<T>(step: () => Promise<T>, stop: (started: T) => Promise<void>): Promise<T>;
}

export function stopOnSignals(): Shutdown {
  const stops: Array<() => Promise<void>> = [];
  let signalled = false;
  let stopping = false;
  let stepsRunning = 0;

  const stopAll = async (): Promise<never> => {
    if (!stopping) {
      stopping = true;
      let exitCode = 0;
      for (const stop of stops.splice(0).reverse()) {
        try {
          await stop();
        } catch (error) {
          console.error('While stopping:', error);
          exitCode = 1;
        }
      }
      process.exit(exitCode);
    }
    // A second signal, or a step ending while the first stop runs: that stop exits.
    return new Promise<never>(() => {});
  };

  const onSignal = () => {
    signalled = true;
    if (stepsRunning === 0) void stopAll();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  return {
    async start(step, stop) {
      if (signalled) return stopAll();
      stepsRunning += 1;
      let started;
      try {
        started = await step();
      } catch (error) {
        // Asked to stop while the step failed: stopping is what was asked, and it succeeds.
        if (signalled) return stopAll();
        throw error;
      } finally {
        stepsRunning -= 1;
      }
      stops.push(() => stop(started));
      if (signalled) return stopAll();
      return started;
    },
  };
}
