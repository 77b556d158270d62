// The linter: eslint's recommended rules and typescript-eslint's. `npm run lint`; run by `npm test`.
// Three rules read the types (issue 23: storage is asynchronous): a promise nobody awaits or
// catches, an `await` of something that is not a promise, a promise where a condition or a
// void callback is expected. They need the TypeScript project (projectService), which makes the
// run slower (measured in the commit that added them).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', 'migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
    rules: {
      // Unused names are the compiler's (noUnusedLocals, noUnusedParameters); `_x` marks one kept on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // `== null` is the one loose comparison kept: it means null or undefined.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': ['error', { allow: ['log', 'warn', 'error'] }],
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // The fake Discord reads and writes Discord's JSON as it comes: untyped by nature.
    files: ['testkit/fake-discord/**', 'testkit/fake-discord.ts', 'test/fake-discord.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
);
