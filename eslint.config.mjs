import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers of a service (docs/architecture.md, "Layout"), enforced here so that the shape holds as the
 * system grows: domain/ is pure, app/ reaches infrastructure only through its ports, and both leave
 * transports, generated clients and drivers to the outer layers.
 */
const OUTER_LAYERS = {
  group: ['**/infra', '**/infra/**', '**/transport', '**/transport/**', '**/generated', '**/generated/**'],
  message: 'infra/, transport/ and generated code are outer layers: reach them through app/ports.ts.',
};
const DRIVERS = [
  { name: '@grpc/grpc-js', message: 'gRPC belongs in transport/ and infra/.' },
  { name: 'pg', message: 'Database access belongs in infra/.' },
  { name: 'express', message: 'HTTP belongs in transport/.' },
  { name: 'ioredis', message: 'Redis belongs in infra/.' },
  { name: 'amqplib', message: 'The broker belongs in infra/ and transport/.' },
  { name: '@sika/messaging', message: 'The broker and the outbox belong in infra/ and transport/.' },
  {
    name: '@sika/contracts',
    message: 'Protobuf types are mapped once, under transport/grpc/ (and infra/ for peers and events).',
  },
];
const DRIVER_PATTERNS = [
  { group: ['@prisma/*'], message: 'Prisma belongs in infra/.' },
  { group: ['node:http', 'node:https', 'node:net'], message: 'I/O belongs in infra/ and transport/.' },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      'packages/contracts/src/gen/**',
      'services/*/src/generated/**',
      'packages/*/src/generated/**',
      'packages/*/test/generated/**',
      '.sika/**',
      // Files that break the layer rules on purpose: scripts/lint/layers.test.ts lints them on its own.
      'scripts/lint/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.test.json', './scripts/db/tsconfig.json', './scripts/stack/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // A promise nobody awaits loses its failure: await it, return it, or mark it `void` on purpose.
      '@typescript-eslint/no-floating-promises': 'error',
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['services/*/src/domain/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...DRIVERS,
            {
              name: '@sika/platform',
              message: 'domain/ is pure: import errors, ids and the clock from @sika/platform/pure.',
            },
          ],
          patterns: [
            OUTER_LAYERS,
            ...DRIVER_PATTERNS,
            {
              group: ['**/app', '**/app/**'],
              message: 'domain/ knows nothing of the use cases that apply it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['services/*/src/app/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: DRIVERS, patterns: [OUTER_LAYERS, ...DRIVER_PATTERNS] }],
    },
  },
  {
    // The sample shop is a merchant's program: it logs to its console like one.
    files: ['examples/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Fixtures of the migration tool: a fake service tree that no tsconfig compiles.
    files: ['scripts/db/test/fixtures/**/*.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
      },
    },
  },
);
