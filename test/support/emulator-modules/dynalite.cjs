// dynalite through Node's own require, once per jest worker (test/support/node-environment.cjs).
module.exports = globalThis.__emulatorRequire('dynalite');
