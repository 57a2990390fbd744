import { readFileSync } from 'node:fs';
import path from 'node:path';

import { OPERATIONS } from './operations';
import { VERSION } from './version';

/** The document the types were generated from at build time (src/generated, never committed). */
const document = JSON.parse(readFileSync(path.join(__dirname, 'generated', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string }>>;
};

describe('OPERATIONS', () => {
  it("calls each of the document's operations with its own method and path", () => {
    const documented = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.entries(methods).map(([method, operation]) => [
        operation.operationId,
        { method: method.toUpperCase(), path: route },
      ]),
    );
    const called = Object.entries(OPERATIONS).map(([operationId, { method, path }]) => [
      operationId,
      { method, path },
    ]);
    expect(Object.fromEntries(called)).toEqual(Object.fromEntries(documented));
  });

  it('sends an Idempotency-Key with every POST that may be retried, and with no GET', () => {
    const generated = Object.entries(OPERATIONS)
      .filter(([, operation]) => operation.idempotency === 'generated')
      .map(([operationId]) => operationId);
    expect(generated.sort()).toEqual(['cancelPayment', 'createPayment', 'createPayout']);
  });
});

describe('VERSION', () => {
  it("is the package's version", () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(VERSION).toBe(manifest.version);
  });
});
