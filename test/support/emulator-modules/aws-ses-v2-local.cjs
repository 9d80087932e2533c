// aws-ses-v2-local through Node's own require, once per jest worker
// (test/support/node-environment.cjs). It keeps the captured mail in the module, for every server
// it starts: emptied at each start, so that each local stack sees only its own mail, as when the
// module was loaded again in each test file.
const emulator = globalThis.__emulatorRequire('aws-ses-v2-local');
const { clearStore } = globalThis.__emulatorRequire('aws-ses-v2-local/dist/store');

module.exports = {
  ...emulator,
  default: (options) => {
    clearStore();
    return emulator.default(options);
  },
};
