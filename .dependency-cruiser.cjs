/**
 * The layout's one-way dependencies (README, 'Architecture'), checked by `npm run lint`.
 * One named rule per boundary: a new import across one fails with the rule's name and reason.
 *
 *   frontend ─┐
 *   lambdas ──┼─▶ core          infra ─▶ lambdas, core
 *   lambdas/<function>/ ─▶ itself, the shared code (never another function's folder)
 *   lambdas/<shared code>/ ─▶ the shared code (never a function's folder)
 *   ops ──────┘                 local ─▶ lambdas, core
 *   ops ─▶ infra's context parser (config.ts, context-defaults.ts), the shared code (leads resend)
 *   scripts (entry points) ─▶ anything; nothing ─▶ scripts or another entry point
 *   infra/tools (build time) ◀─ infra/app.ts only, within infra
 */
const product = '^(core|frontend|lambdas|infra|local|ops|scripts|test)/';

/**
 * The folders of lambdas/ that hold the code the functions share, named for what they do: the
 * request's life (requests/), the limits (limits/), the mail (mail/), the handlers' edge (http/:
 * reading the request, writing the reply), what every function runs on (runtime/: clients,
 * configuration, typed errors, logs, metrics) and the author's mail provider (mail-provider/: the
 * hand-off function's and the leads tool's erase). Every other folder of lambdas/ is one function's.
 */
const sharedCode = ['requests', 'limits', 'mail', 'http', 'runtime', 'mail-provider', 'canary-check', 'funnel'];
const sharedCodePath = `^lambdas/(${sharedCode.join('|')})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-only-core',
      comment: 'core/ is what every part shares: it may not depend on any of them.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: product, pathNot: '^core/' },
    },
    {
      name: 'core-is-platform-free',
      comment: 'core/ is plain data and pure functions: no React, no CDK, no AWS SDK, no Node built-ins.',
      severity: 'error',
      from: { path: '^core/' },
      to: {
        dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        path: '^(node:|react|react-dom|aws-cdk-lib|constructs|@aws-sdk/|@aws-lambda-powertools/|fs|path|os|crypto|http|https|child_process|url)',
      },
    },
    {
      name: 'frontend-imports-only-itself-and-core',
      comment: 'The page ships to browsers: it may use the shared core, never the functions, the stack or the tools.',
      severity: 'error',
      from: { path: '^frontend/' },
      to: { path: product, pathNot: '^(frontend|core)/' },
    },
    {
      name: 'lambdas-import-only-themselves-and-core',
      comment: 'The functions are bundled alone: they may use the shared core, nothing else of the project.',
      severity: 'error',
      from: { path: '^lambdas/' },
      to: { path: product, pathNot: '^(lambdas|core)/' },
    },
    {
      name: 'a-function-imports-no-other-function',
      comment: `A function's folder is its own: code two functions use lives in the shared code (lambdas/{${sharedCode.join(',')}}/) or core/, so one function's change never reaches into another's bundle unseen.`,
      severity: 'error',
      from: { path: '^lambdas/([^/]+)/', pathNot: sharedCodePath },
      to: { path: '^lambdas/[^/]+/', pathNot: `^lambdas/($1|${sharedCode.join('|')})/` },
    },
    {
      name: 'shared-code-imports-no-function',
      comment: `The shared code (lambdas/{${sharedCode.join(',')}}/) is what the functions share: it may not depend on any one of them.`,
      severity: 'error',
      from: { path: sharedCodePath },
      to: { path: '^lambdas/[^/]+/', pathNot: sharedCodePath },
    },
    {
      name: 'infra-imports-only-itself-lambdas-and-core',
      comment: 'The stack may size and bundle the functions and read the core, not the page, the twin or the tools.',
      severity: 'error',
      from: { path: '^infra/' },
      to: { path: product, pathNot: '^(infra|lambdas|core)/' },
    },
    {
      name: 'infra-tools-are-build-time',
      comment:
        'infra/tools/ reads what a synth produced (audit report, rule packs, generated documents): the stack and its constructs never depend on it; the app entry runs it.',
      severity: 'error',
      from: { path: '^infra/', pathNot: '^infra/(tools/|app\\.ts$)' },
      to: { path: '^infra/tools/' },
    },
    {
      name: 'local-imports-only-itself-lambdas-and-core',
      comment:
        'The local twin runs the functions and serves the site as the cloud does, from what the core describes (the headers and cache policy are in core/config/edge-headers.ts): never the CDK app.',
      severity: 'error',
      from: { path: '^local/' },
      to: { path: product, pathNot: '^(local|lambdas|core)/' },
    },
    {
      name: 'ops-imports-only-itself-core-and-the-context-parser',
      comment: `The operator's tools talk to a running product from outside: they may use the shared core, the app's context parser (pure, no CDK), so the preflight reads a stage exactly as cdk deploy does, and the functions' shared code (lambdas/{${sharedCode.join(',')}}/, never a function's folder), so \`leads resend\` sends through the send step's own limits, pause and claim.`,
      severity: 'error',
      from: { path: '^ops/' },
      to: { path: product, pathNot: `^(ops|core)/|${sharedCodePath}|^infra/(config|context-defaults)\\.ts$` },
    },
    {
      name: 'nothing-imports-scripts',
      comment: 'scripts/ holds entry points only: put a library where its users can reach it.',
      severity: 'error',
      from: {},
      to: { path: '^scripts/' },
    },
    {
      name: 'nothing-imports-entry-points',
      comment: 'Entry points import; nothing imports them.',
      severity: 'error',
      from: {},
      to: {
        path: '^(infra/app\\.ts|local/start\\.ts|local/dev\\.ts|frontend/src/loader\\.ts|frontend/build/prerender\\.ts)$',
      },
    },
    {
      name: 'nothing-imports-tests',
      comment: 'The product never depends on its tests.',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle makes the order of module loading matter; break it by moving the shared part down.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|cdk\\.out|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
