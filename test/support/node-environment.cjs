/**
 * jest's Node environment, with Node's own `require` for the emulators' packages
 * (test/support/emulator-modules/): jest loads every module again in each test file, and the
 * three emulators' packages (dynalite, s3rver, aws-ses-v2-local, with express, koa, mailparser,
 * handlebars and zod behind them) took about 1.2 s of CPU in each of the 59 files that start a
 * local stack. Loaded by Node, they load once per jest worker. Each server they start keeps its
 * own state (aws-ses-v2-local's captured mail aside: its shim empties it on each start).
 */
const { createRequire } = require('node:module');
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

/** The name the shims read Node's require under, on each test file's global object. */
const emulatorRequireName = '__emulatorRequire';

module.exports = class NodeEnvironmentWithEmulators extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global[emulatorRequireName] = createRequire(path.join(config.projectConfig.rootDir, 'package.json'));
  }
};
