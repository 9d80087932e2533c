import { availableParallelism } from 'node:os';

// Three projects: `node` (the core, lambdas, local stack, infra, build scripts), `jsdom` (the page's
// components) and `e2e` (headless Chromium against the running local stack).
// swc compiles each test and source file (types are `npm run typecheck`'s job): about a quarter
// less CPU than ts-jest's transpile-only mode on the same files, and CI's two cores are the limit.
const transform = {
  '^.+\\.tsx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic' }, useDefineForClassFields: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};

// The copy the tests read is content/*.yaml's, made current before any test runs.
const globalSetup = '<rootDir>/test/support/content-modules.ts';

/** @type {import('jest').Config} */
export default {
  // Jest's default leaves one core to its parent process, which only schedules: on CI's two cores
  // that is one worker, and the suite ran in series. About a quarter of the workers' time is spent
  // waiting (on the SDK's timeouts in the fault tests, child processes, the browser), so three
  // workers share two cores: 250 s for the whole suite instead of 278 s with two, the same tests
  // (docs/performance.md). Counted here, not as '150%': jest reads a percentage above 100 as a
  // number of workers.
  maxWorkers: Math.ceil(availableParallelism() * 1.5),
  // A hook that starts the local stack (emulators, the handlers compiled by swc) takes 1-3 s
  // alone and more than jest's default 5 s on a busy 2-core machine; timing out there left the
  // stack half-started and its temporary folder behind. Tests that need longer say so. (jest
  // reads this option for the whole run only, not per project.)
  testTimeout: 30_000,
  // The longest files first, on a fresh machine too (test/support/test-sequencer.cjs).
  testSequencer: '<rootDir>/test/support/test-sequencer.cjs',
  // The whole run writes its temporary files in a folder of its own, which must be empty at the
  // end: no test may leave synth output, temporary folders or processes' files behind.
  globalSetup: '<rootDir>/test/support/temporary-directory-setup.ts',
  globalTeardown: '<rootDir>/test/support/temporary-directory-teardown.ts',
  projects: [
    {
      displayName: 'node',
      // jest's Node environment; the emulators' packages load once per worker, not once per file.
      testEnvironment: '<rootDir>/test/support/node-environment.cjs',
      moduleNameMapper: { '^(dynalite|s3rver|aws-ses-v2-local)$': '<rootDir>/test/support/emulator-modules/$1.cjs' },
      globalSetup,
      roots: ['<rootDir>/test'],
      testMatch: [
        '<rootDir>/test/{core,lambdas,local,infra,integ,ops,scripts,repository,support,frontend/build}/**/*.test.ts',
      ],
      transform,
    },
    {
      displayName: 'jsdom',
      globalSetup,
      // A failing test must not leave its console or toast spies on the next one.
      restoreMocks: true,
      // jest-fixed-jsdom keeps Node's fetch, streams and TextEncoder, which msw needs.
      testEnvironment: 'jest-fixed-jsdom',
      testEnvironmentOptions: { customExportConditions: [''] },
      roots: ['<rootDir>/test'],
      testMatch: ['<rootDir>/test/frontend/**/*.test.ts?(x)'],
      // The page's build steps run in Node (project `node`).
      testPathIgnorePatterns: ['<rootDir>/test/frontend/build/'],
      setupFilesAfterEnv: ['<rootDir>/test/frontend/setup.ts'],
      moduleNameMapper: { '\\.css$': '<rootDir>/test/frontend/style-stub.cjs' },
      transform,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      // One local product and one Chromium for every e2e file, started and ended here.
      globalSetup: '<rootDir>/test/e2e/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/e2e/support/global-teardown.ts',
      transform,
    },
  ],
};
