/** One jest configuration for the whole workspace: unit tests sit beside the code, integration tests in
 * each package's test/ folder, end-to-end tests in test-e2e/. Types are checked by `pnpm typecheck`,
 * so ts-jest only transpiles. */
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }],
};
const moduleNameMapper = {
  '^@sika/([a-z-]+)$': '<rootDir>/packages/$1/src',
  '^@sika/([a-z-]+)/([a-z-]+)$': '<rootDir>/packages/$1/src/$2',
};
const common = { rootDir: __dirname, testEnvironment: 'node', transform, moduleNameMapper };
// Tests that need Postgres, RabbitMQ or Redis find them once per run (env, local ports, testcontainers).
const withInfrastructure = {
  globalSetup: '<rootDir>/packages/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/packages/testing/src/jest-global-teardown.ts',
};

module.exports = {
  // Real databases, brokers, processes and a browser on 2 shared cores, the end-to-end stack beside them: a
  // step that takes 200 ms alone may take seconds while the machine is busy. (A global option: jest ignores it
  // per project.) Files that spawn processes set more themselves.
  testTimeout: 60_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{packages,services}/*/src/**/*.test.ts', '<rootDir>/scripts/*/*.test.ts'],
    },
    {
      ...common,
      ...withInfrastructure,
      displayName: 'integration',
      testMatch: [
        '<rootDir>/{packages,services}/*/test/**/*.test.ts',
        '<rootDir>/scripts/**/test/**/*.test.ts',
      ],
    },
    {
      ...common,
      // Offline checks of images, charts, manifests and skaffold: no infrastructure needed.
      displayName: 'deploy',
      testMatch: ['<rootDir>/deploy/test/**/*.test.ts'],
    },
    {
      ...common,
      // Starts the whole stack once (and stops it) around the end-to-end files.
      globalSetup: '<rootDir>/test-e2e/support/global-setup.ts',
      globalTeardown: '<rootDir>/test-e2e/support/global-teardown.ts',
      displayName: 'e2e',
      testMatch: ['<rootDir>/test-e2e/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test-e2e/faults/'],
    },
    {
      ...common,
      // Kills and restarts the services of a stack it starts itself, on the local stack's ports: never beside
      // the e2e project (scripts/run-tests.mjs runs it after the others, alone).
      ...withInfrastructure,
      displayName: 'faults',
      testMatch: ['<rootDir>/test-e2e/faults/**/*.test.ts'],
    },
  ],
};
