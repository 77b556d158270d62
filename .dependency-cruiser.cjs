// Layer rules (npm run layers; run by npm test). See docs/architecture.md, "Layers".
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle anywhere: a circle means two modules that are really one, or a missing seam.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-is-pure',
      severity: 'error',
      comment: 'The engine imports nothing of the project outside itself, no Node module and no package but zod.',
      from: { path: '^src/engine/' },
      to: { pathNot: ['^src/engine/', '^node_modules/zod/'] },
    },
    {
      name: 'i18n-stands-alone',
      severity: 'error',
      comment: 'The catalogs import nothing of the project but the kinds and codes they are keyed by.',
      from: { path: '^src/i18n/' },
      to: { pathNot: ['^src/i18n/', '^src/engine/(types|refusal-codes)\\.ts$'] },
    },
    {
      name: 'nothing-below-discord-imports-it',
      severity: 'error',
      comment: 'The Discord shell sits on top: the engine, the service, storage, delivery and stats never import it.',
      from: { path: '^src/(engine|app|db|delivery|stats|i18n|scenario|sim|config)' },
      to: { path: '^src/discord/' },
    },
    {
      name: 'discord-js-only-in-the-shell-and-delivery',
      severity: 'error',
      comment:
        'Only the shell and the deliverer speak to Discord; the rules of the game are testable without discord.js.',
      from: { path: '^src/(engine|app|db|stats|i18n|scenario|sim)/' },
      to: { path: '^node_modules/(discord\\.js|@discordjs|discord-api-types)/' },
    },
    {
      name: 'storage-below-the-service',
      severity: 'error',
      comment: 'The stores are called by the service, delivery and the shell, never the other way round.',
      from: { path: '^src/db/' },
      to: { path: '^src/(app|delivery|discord)/' },
    },
    {
      name: 'delivery-below-the-service',
      severity: 'error',
      comment: 'The deliverer sends outbox rows; it knows nothing of games or the service.',
      from: { path: '^src/delivery/' },
      to: { path: '^src/(app|discord)/' },
    },
    {
      name: 'src-does-not-import-tests',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|testkit|tools)/' },
    },
    {
      name: 'tests-are-not-a-library',
      severity: 'error',
      comment: 'What tests and benchmarks share (the fake Discord, the test world) lives in testkit/.',
      from: { path: '^(bench|testkit)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json', '.d.ts'],
    },
  },
};
