import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const infrastructure = ['express', 'mongoose', 'mongodb', 'kafkajs', 'ioredis', 'axios', 'opossum', 'winston', 'undici', 'light-my-request', 'rate-limiter-flexible', '@opentelemetry/*'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'deploy/**', '**/*.mjs', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { project: ['./tsconfig.eslint.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [{ group: ['@switchyard/*/*', '!@switchyard/event-bus/contract', '!@switchyard/contracts/wire'], message: 'Import packages through their entry point.' }] }],
    },
  },
  {
    // The web console: browser code with its own tsconfig (DOM, JSX), React's hook rules.
    files: ['apps/console/**/*.ts', 'apps/console/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { parserOptions: { project: ['./apps/console/tsconfig.test.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Tests in domain/ use node:test and node:assert.
    files: ['services/*/src/domain/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      // node's built-ins are infrastructure too (sockets, timers, the host, files), except node:crypto's pure
      // functions (hashes, HMACs, signatures); a type from one (a Readable in a port) is allowed.
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [
        { group: ['node:*', '!node:crypto'], allowTypeImports: true, message: 'domain/ depends on ports, not node built-ins (node:crypto excepted): take it through a port or from the composition root.' },
      ] }],
    },
  },
  {
    files: ['services/*/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: [...infrastructure, 'ws', 'better-sqlite3'], message: 'domain/ depends on ports, not infrastructure.' },
        { group: ['@switchyard/*/*', '!@switchyard/contracts/wire'], message: 'Import packages through their entry point.' },
        { group: ['**/adapters/**', '**/entry-points/**'], message: 'domain/ must not import adapters or entry points.' },
      ] }],
    },
  },
  {
    // The console imports @switchyard/contracts/wire into its browser bundle: types only, nothing outside the folder.
    files: ['shared/contracts/src/wire/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\./)', message: '@switchyard/contracts/wire is bundled for the browser: import only from this folder.' }] }],
    },
  },
);
