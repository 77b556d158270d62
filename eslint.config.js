// The linter: eslint's recommended rules and typescript-eslint's, without type information (fast;
// the compiler already checks types). `npm run lint`; run by `npm test`.
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
    // The fake Discord reads and writes Discord's JSON as it comes: untyped by nature.
    files: ['testkit/fake-discord/**', 'testkit/fake-discord.ts', 'test/fake-discord.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
);
