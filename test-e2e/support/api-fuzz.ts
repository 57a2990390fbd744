import fc from 'fast-check';
import { Agent, fetch } from 'undici';

import { GATEWAY_URL } from './environment';

/**
 * A property-based fuzzer of the public API driven by its OpenAPI document: for every operation, requests
 * that are valid by the document, and requests with exactly one fault (one parameter of a wrong type, out of
 * bounds, with a control character, huge, empty, missing or unknown; a bad id or cursor; a bad header), sent
 * to the running gateway. What must hold is in `checkAnswer`.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CONNECTIONS = new Agent({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000 });

/** One operation of the document, with its parameters and body schema resolved. */
export interface Operation {
  method: 'GET' | 'POST';
  path: string;
  operationId: string;
  parameters: { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Json }[];
  body: Json | undefined;
  bodyRequired: boolean;
  /** The statuses the document lists for it. */
  statuses: Set<number>;
}

/** A request and what it is: valid by the document, or faulty in the parameter named. */
export interface FuzzRequest {
  method: 'GET' | 'POST';
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  /** Sent as is (already serialized): a body need not be JSON. */
  body: string | undefined;
  fault: { param: string; what: string } | undefined;
}

export function operationsOf(document: Json): Operation[] {
  const resolve = (schema: Json | undefined): Json | undefined => {
    if (schema?.['$ref'] === undefined) return schema;
    const name = String(schema['$ref']).replace('#/components/schemas/', '');
    return document['components']['schemas'][name] as Json;
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document['paths'] as Json)) {
    for (const [method, operation] of Object.entries(methods as Json)) {
      const op = operation as Json;
      operations.push({
        method: method.toUpperCase() as 'GET' | 'POST',
        path,
        operationId: op['operationId'] as string,
        parameters: ((op['parameters'] ?? []) as Json[]).map((parameter) => ({
          name: parameter['name'] as string,
          in: parameter['in'] as 'path' | 'query' | 'header',
          required: parameter['required'] === true,
          schema: parameter['schema'] as Json,
        })),
        body: resolve(op['requestBody']?.['content']?.['application/json']?.['schema'] as Json | undefined),
        bodyRequired: op['requestBody']?.['required'] === true,
        statuses: new Set(Object.keys(op['responses'] as Json).map(Number)),
      });
    }
  }
  return operations;
}

/** The string variant of a nullable property (`anyOf: [schema, {type: null}]`), and whether null is allowed. */
function unwrap(schema: Json): { schema: Json; nullable: boolean } {
  const variants = schema['anyOf'] as Json[] | undefined;
  if (variants === undefined) return { schema, nullable: false };
  const concrete = variants.find((variant) => variant['type'] !== 'null') ?? {};
  return { schema: { ...concrete, description: schema['description'] }, nullable: true };
}

const PRINTABLE = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);

/** A string valid for a string schema (pattern, bounds, enum, format), as the document describes it. */
function validString(name: string, schema: Json): fc.Arbitrary<string> {
  if (schema['enum'] !== undefined) return fc.constantFrom(...(schema['enum'] as string[]));
  if (schema['const'] !== undefined) return fc.constant(schema['const'] as string);
  if (schema['format'] === 'date-time') {
    // Date bounds are semantic (descriptions): only expires_at has them, and an ISO date within them is valid.
    const minutes =
      name === 'expires_at' ? fc.integer({ min: 2, max: 23 * 60 }) : fc.integer({ min: -1e6, max: 0 });
    return minutes.map((offset) => new Date(Date.now() + offset * 60_000).toISOString());
  }
  if (schema['format'] === 'uri') {
    return fc
      .tuple(fc.constantFrom('https', 'http'), fc.stringMatching(/^[a-z0-9/_-]{0,40}$/))
      .map(([scheme, path]) => `${scheme}://shop.example/${path}`);
  }
  if (name === 'customer_alias') {
    // Test aliases only: any other valid alias would send a request-to-pay to the simulator's unknown payer.
    return fc.constantFrom('+225 0000000001', '+225 0000000004', '+2250000000002');
  }
  const pattern = schema['pattern'] as string | undefined;
  const maxLength = (schema['maxLength'] as number | undefined) ?? 60;
  const minLength = (schema['minLength'] as number | undefined) ?? 0;
  if (pattern !== undefined && !pattern.includes('(?')) {
    return fc.stringMatching(new RegExp(pattern)).filter((value) => value.length <= maxLength);
  }
  const regex = pattern === undefined ? undefined : new RegExp(pattern, 'u');
  return PRINTABLE.map((value) => value.slice(0, maxLength)).filter(
    (value) => value.length >= minLength && (regex === undefined || regex.test(value)),
  );
}

/** A value valid for a property's schema. */
function validValue(name: string, property: Json): fc.Arbitrary<unknown> {
  const { schema, nullable } = unwrap(property);
  const type = schema['type'];
  let value: fc.Arbitrary<unknown>;
  if (type === 'integer') {
    value = fc.integer({
      min: (schema['minimum'] as number | undefined) ?? -1e6,
      max: Math.min((schema['maximum'] as number | undefined) ?? 1e9, 1e9),
    });
  } else if (type === 'object') {
    const keys = schema['propertyNames'] as Json | undefined;
    value = fc.dictionary(
      validString('key', keys ?? { maxLength: 40 }).filter((key) => key.length > 0),
      validString('value', (schema['additionalProperties'] as Json | undefined) ?? {}),
      { maxKeys: Math.min((schema['maxProperties'] as number | undefined) ?? 5, 5) },
    );
  } else if (type === 'boolean') {
    value = fc.boolean();
  } else {
    value = validString(name, schema);
  }
  return nullable ? fc.oneof(value, fc.constant(null)) : value;
}

/** A valid body: every required property, any of the optional ones. */
function validBody(schema: Json): fc.Arbitrary<Json> {
  const properties = (schema['properties'] ?? {}) as Json;
  const required = new Set((schema['required'] ?? []) as string[]);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties))
    record[name] = validValue(name, property as Json);
  return (
    fc
      .record(record, { requiredKeys: [...required] })
      // An on_delivery payment needs 24 h or more (decided, not in the schema): an hour spare for the way there.
      .map((body) => (body['mode'] === 'on_delivery' ? { ...body, expires_at: inHours(25) } : body))
  );
}

function inHours(hours: number): string {
  return new Date(Date.now() + hours * 3_600_000).toISOString();
}

const CONTROL = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));

/** One fault in a property of a string schema, or of any schema: each must be refused naming the property. */
function badValue(property: Json): fc.Arbitrary<{ value: unknown; what: string }> {
  const { schema } = unwrap(property);
  const type = schema['type'];
  const faults: fc.Arbitrary<{ value: unknown; what: string }>[] = [
    fc
      .constantFrom<unknown>([], type === 'object' ? 7 : {}, true, type === 'string' ? 12 : 'twelve')
      .map((value) => ({
        value,
        what: 'wrong type',
      })),
  ];
  if (type === 'string' && schema['enum'] === undefined && schema['const'] === undefined) {
    faults.push(
      fc.tuple(PRINTABLE, CONTROL).map(([text, control]) => ({
        value: `${text.slice(0, 5)}${control}x`,
        what: 'control character',
      })),
    );
    const max = schema['maxLength'] as number | undefined;
    if (max !== undefined) {
      faults.push(
        fc.integer({ min: max + 1, max: max + 10_000 }).map((n) => ({ value: 'a'.repeat(n), what: 'huge' })),
      );
    }
  }
  if (schema['enum'] !== undefined || schema['const'] !== undefined) {
    faults.push(
      fc.constantFrom('', 'unknown', 'SUCCEEDED', 'xof').map((value) => ({ value, what: 'not in enum' })),
    );
  }
  if (type === 'integer') {
    const min = schema['minimum'] as number | undefined;
    const max = schema['maximum'] as number | undefined;
    faults.push(fc.constantFrom(1.5, -0.5).map((value) => ({ value, what: 'fraction' })));
    if (min !== undefined)
      faults.push(
        fc.integer({ min: min - 1e6, max: min - 1 }).map((value) => ({ value, what: 'below minimum' })),
      );
    if (max !== undefined && max < Number.MAX_SAFE_INTEGER) {
      faults.push(
        fc.integer({ min: max + 1, max: max + 1e6 }).map((value) => ({ value, what: 'above maximum' })),
      );
    }
    if (max === Number.MAX_SAFE_INTEGER) faults.push(fc.constant({ value: 2 ** 60, what: 'above maximum' }));
  }
  return fc.oneof(...faults);
}

/** A query string value for a parameter's schema, valid. */
function validQuery(name: string, schema: Json): fc.Arbitrary<string> {
  if (schema['type'] === 'integer') {
    return fc.integer({ min: schema['minimum'] as number, max: schema['maximum'] as number }).map(String);
  }
  return validString(name, schema);
}

/** One fault in a query parameter. */
function badQuery(schema: Json): fc.Arbitrary<{ value: string; what: string }> {
  const faults: fc.Arbitrary<{ value: string; what: string }>[] = [
    fc
      .tuple(PRINTABLE, CONTROL)
      .map(([text, control]) => ({ value: `${text.slice(0, 5)}${control}`, what: 'control character' })),
    fc.integer({ min: 2_049, max: 6_000 }).map((n) => ({ value: 'z'.repeat(n), what: 'huge' })),
  ];
  if (schema['type'] === 'integer') {
    faults.push(
      fc
        .oneof(
          fc.constantFrom('', 'ten', '2.5', '1e2', '-1', '0x10', ' 5'),
          fc.integer({ min: (schema['maximum'] as number) + 1, max: 1e9 }).map(String),
          fc.integer({ min: -1e9, max: (schema['minimum'] as number) - 1 }).map(String),
        )
        .map((value) => ({ value, what: 'bad integer' })),
    );
  } else if (schema['enum'] !== undefined) {
    const members = schema['enum'] as string[];
    faults.push(
      fc
        .constantFrom('', 'paid', 'CREATED', 'refund', 'Payment')
        .filter((value) => !members.includes(value))
        .map((value) => ({ value, what: 'not in enum' })),
    );
  } else if (schema['format'] === 'date-time') {
    faults.push(
      fc
        .constantFrom('', 'yesterday', '2026-01-01', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z')
        .map((value) => ({ value, what: 'bad date' })),
    );
  } else if (schema['pattern'] !== undefined && !String(schema['pattern']).includes('(?')) {
    // A cursor: another object's id, an empty one, or garbage.
    faults.push(
      fc
        .oneof(fc.constantFrom('', 'pay_', 'po_123', 'txn_', 'pay_$', 'pay_abc!'), PRINTABLE)
        .filter((value) => !new RegExp(schema['pattern'] as string).test(value))
        .map((value) => ({ value, what: 'bad cursor' })),
    );
  }
  return fc.oneof(...faults);
}

/** Ids of the right shape (that exist or not), and ids of no shape at all. */
function idFor(schema: Json): fc.Arbitrary<{ value: string; valid: boolean }> {
  const valid = fc.stringMatching(new RegExp(schema['pattern'] as string)).filter((id) => id.length < 60);
  const bad = fc.oneof(
    PRINTABLE.filter((id) => id.length > 0),
    fc.tuple(PRINTABLE, CONTROL).map(([text, control]) => `${text}${control}`),
    fc.integer({ min: 300, max: 3_000 }).map((n) => `pay_${'A'.repeat(n)}`),
    fc.constantFrom('pay_', 'po_', '..', '%', 'pay_%00', 'null', '[]'),
  );
  return fc.oneof(
    valid.map((value) => ({ value, valid: true })),
    bad.map((value) => ({ value, valid: false })),
  );
}

/** Requests for one operation: valid ones, and ones with a single fault. */
export function requestsFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const pathParameter = operation.parameters.find((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const idempotency = operation.parameters.find((parameter) => parameter.name === 'Idempotency-Key');
  const id = pathParameter === undefined ? fc.constant(undefined) : idFor(pathParameter.schema);
  const query = fc.record(
    Object.fromEntries(
      queryParameters.map((parameter) => [parameter.name, validQuery(parameter.name, parameter.schema)]),
    ),
    { requiredKeys: [] },
  );
  const body = operation.body === undefined ? fc.constant(undefined) : validBody(operation.body);
  const key = fc.uuid();

  const valid = fc
    .record({ id, query, body, key })
    .map(({ id, query, body, key }) =>
      build(
        operation,
        id?.value,
        Object.entries(query) as [string, string][],
        body,
        idempotency && key,
        undefined,
      ),
    );
  const variants: fc.Arbitrary<FuzzRequest>[] = [valid];

  const properties = Object.entries((operation.body?.['properties'] ?? {}) as Json);
  if (properties.length > 0) {
    variants.push(
      fc
        .record({ body, key, choice: fc.constantFrom(...properties) })
        .chain(({ body, key, choice: [name, property] }) =>
          badValue(property as Json).map(({ value, what }) =>
            build(operation, undefined, [], { ...body, [name]: value }, idempotency && key, {
              param: name,
              what,
            }),
          ),
        ),
    );
    const required = (operation.body?.['required'] ?? []) as string[];
    if (required.length > 0) {
      variants.push(
        fc.record({ body, key, name: fc.constantFrom(...required) }).map(({ body, key, name }) => {
          const { [name]: _dropped, ...rest } = body ?? {};
          return build(operation, undefined, [], rest, idempotency && key, { param: name, what: 'missing' });
        }),
      );
    }
  }
  if (operation.body !== undefined) {
    variants.push(
      fc
        .record({
          body,
          key,
          name: fc
            .stringMatching(/^[a-z_]{1,20}$/)
            .filter((name) => !(name in (operation.body?.['properties'] ?? {}))),
        })
        .map(({ body, key, name }) =>
          build(operation, undefined, [], { ...body, [name]: 'x' }, idempotency && key, {
            param: name,
            what: 'unknown field',
          }),
        ),
    );
  }
  if (queryParameters.length > 0) {
    variants.push(
      fc.record({ choice: fc.constantFrom(...queryParameters) }).chain(({ choice }) =>
        badQuery(choice.schema).map(({ value, what }) =>
          build(operation, undefined, [[choice.name, value]], undefined, undefined, {
            param: choice.name,
            what,
          }),
        ),
      ),
      fc
        .stringMatching(/^[a-z_]{1,20}$/)
        .filter((name) => !queryParameters.some((parameter) => parameter.name === name))
        .map((name) =>
          build(operation, undefined, [[name, '1']], undefined, undefined, {
            param: name,
            what: 'unknown parameter',
          }),
        ),
    );
  }
  if (idempotency !== undefined) {
    variants.push(
      fc
        .record({ body, value: fc.integer({ min: 256, max: 2_000 }).map((n) => 'k'.repeat(n)) })
        .map(({ body, value }) =>
          build(operation, undefined, [], body, value, { param: 'Idempotency-Key', what: 'bad header' }),
        ),
    );
  }
  if (pathParameter !== undefined) {
    variants.push(id.map((id) => build(operation, id?.value, [], undefined, undefined, undefined)));
  }
  return fc.oneof(...variants);
}

const EXAMPLE_ID: Record<string, string> = { pay: 'pay_0fuzz', po: 'po_0fuzz' };

function build(
  operation: Operation,
  id: string | undefined,
  query: [string, string][],
  body: Json | undefined,
  idempotencyKey: string | undefined,
  fault: FuzzRequest['fault'],
): FuzzRequest {
  const pattern = operation.parameters.find((parameter) => parameter.in === 'path')?.schema['pattern'] as
    string | undefined;
  const fallback = pattern === undefined ? '' : (EXAMPLE_ID[pattern.slice(1, pattern.indexOf('_'))] ?? '');
  const path = operation.path.replace('{id}', encodeURIComponent(id ?? fallback));
  const headers: Record<string, string> = {};
  if (body !== undefined && operation.method === 'POST') headers['Content-Type'] = 'application/json';
  if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
  return {
    method: operation.method,
    path,
    query,
    headers,
    body: body === undefined || operation.method === 'GET' ? undefined : JSON.stringify(body),
    fault,
  };
}

export interface Answer {
  status: number;
  contentType: string;
  body: Json | undefined;
}

export async function send(secretKey: string, request: FuzzRequest, baseUrl = GATEWAY_URL): Promise<Answer> {
  const search = new URLSearchParams(request.query).toString();
  const response = await fetch(`${baseUrl}${request.path}${search === '' ? '' : `?${search}`}`, {
    dispatcher: CONNECTIONS,
    method: request.method,
    headers: { Authorization: `Bearer ${secretKey}`, ...request.headers },
    body: request.body,
  });
  const text = await response.text();
  let body: Json | undefined;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', body };
}

/** Codes that say the input was refused. */
const REFUSALS = new Set(['parameter_invalid', 'parameter_missing', 'parameter_unknown']);

/**
 * What must hold of an answer: never a 5xx; every 4xx in the documented error shape; a request with one fault
 * refused with 400 naming that parameter (a path id of no shape: 404, as decided); a valid one never refused,
 * and answered only with a status its operation documents. Returns the problem, or undefined.
 */
export function checkAnswer(operation: Operation, request: FuzzRequest, answer: Answer): string | undefined {
  const { status, body } = answer;
  // The key's rate limit is checked before anything else: such an answer says nothing about the input.
  if (status === 429 && body?.['error']?.['code'] === 'rate_limited') return undefined;
  if (status >= 500) return `${status} for a ${request.fault?.what ?? 'valid request'}`;
  const error = body?.['error'] as Json | undefined;
  if (status >= 400) {
    if (!answer.contentType.startsWith('application/json') || error === undefined)
      return `${status} without the error shape`;
    for (const field of ['type', 'code', 'message', 'request_id']) {
      if (typeof error[field] !== 'string') return `${status} whose error has no ${field}`;
    }
    if (REFUSALS.has(error['code'] as string) && typeof error['param'] !== 'string') {
      return `${error['code']} without param`;
    }
  }
  if (request.fault !== undefined) {
    if (status !== 400) return `${status} for ${request.fault.what} in ${request.fault.param}`;
    const param = error?.['param'] as string | undefined;
    if (
      param === undefined ||
      !(param === request.fault.param || param.startsWith(`${request.fault.param}[`))
    ) {
      return `400 naming ${param ?? 'nothing'} for ${request.fault.what} in ${request.fault.param}`;
    }
    return undefined;
  }
  if (REFUSALS.has(error?.['code'] as string))
    return `a valid request refused: ${error?.['code']} ${error?.['param']}`;
  if (!operation.statuses.has(status)) {
    return `${status} is not documented for ${operation.operationId}`;
  }
  return undefined;
}
