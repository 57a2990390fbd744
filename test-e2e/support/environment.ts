import path from 'node:path';

export const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');

/** The end-to-end run gets its own database; everything else is the local stack's default. */
export const E2E_ENV = { SIKA_DB_NAME: 'sika_e2e' } as const;

/** Where the test files find the OTLP receiver the global setup started and every service sends spans to. */
export const OTLP_ENDPOINT_VARIABLE = 'SIKA_E2E_OTLP_ENDPOINT';

export const GATEWAY_URL = 'http://127.0.0.1:8080';
export const CHECKOUT_URL = 'http://127.0.0.1:8081';

/** The public ports of the stack: if one answers before we start, another stack is running. */
export const STACK_PORTS = [8080, 8081, 8082, 8083, 8090, 8051, 8052, 8053, 8054, 8055, 8056];
