import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import addFormats from 'ajv-formats';
import OpenAPIBackend, { type Document, type Request as OpenApiRequest } from 'openapi-backend';

/**
 * The PI-SPI "API Business" document (OpenAPI 3.0.3, version 1.0.0, from the BCEAO), formatted by Prettier:
 * the conformance suite validates every request psp-connector sends against it.
 */

/** Where the mock serves the API, as the document's server URL does (`…/piz/v1`). */
export const API_ROOT = '/piz/v1';
/** The document's token URL is a placeholder (`https://spi.example.com/oauth/token`): the mock serves it here. */
export const TOKEN_PATH = '/oauth/token';

/** A request the document does not allow (or a token request RFC 6749 does not), as the suite reports it. */
export interface Violation {
  request: string;
  problems: string[];
}

interface JsonSchema {
  $ref?: string;
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  [keyword: string]: unknown;
}

/**
 * The document writes its variants as `allOf: [Base, {own properties}]` with `additionalProperties: false` in
 * both parts, which no object can satisfy in JSON Schema (each part refuses the other's properties). What it
 * means, and what packages/pispi's conformance test reads too, is one object with the properties of all its
 * parts: every such allOf is merged so before validation, and nothing else is changed.
 */
function mergeAllOf(document: Document): Document {
  const schemas = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const resolve = (schema: JsonSchema): JsonSchema =>
    schema.$ref?.startsWith('#/components/schemas/')
      ? resolve(schemas[schema.$ref.slice('#/components/schemas/'.length)] ?? {})
      : schema;
  const merge = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(merge);
    if (node === null || typeof node !== 'object') return node;
    const schema = Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, merge(value)]),
    ) as JsonSchema;
    if (!schema.allOf) return schema;
    const parts = schema.allOf.map((part) => resolve(part));
    if (!parts.every((part) => part.properties !== undefined && part.allOf === undefined)) return schema;
    const { allOf: _allOf, ...own } = schema;
    return {
      ...Object.assign({}, ...parts),
      ...own,
      type: 'object',
      properties: Object.assign({}, ...parts.map((part) => part.properties), own.properties ?? {}),
      required: [...new Set(parts.flatMap((part) => part.required ?? []).concat(own.required ?? []))],
      additionalProperties: !parts.some((part) => part.additionalProperties === false),
    };
  };
  // Twice: a merged part may itself have been an allOf referenced from another one.
  return merge(merge(document)) as Document;
}

interface Webhook {
  id: string;
  callbackUrl: string;
  alias?: string;
  events?: string[];
  secret: string;
}

/** The participant's state the answers need: what was registered, requested and paid. */
interface State {
  webhooks: Map<string, Webhook>;
  demandes: Map<string, Record<string, unknown>>;
  paiements: Map<string, Record<string, unknown>>;
}

type Answer = { status: number; body?: unknown };

/** A request as a handler reads it: its JSON body and its path parameters. */
interface Parsed {
  body: Record<string, unknown>;
  params: Record<string, string>;
}

const now = () => new Date().toISOString();
const end2endId = () => `E2E${randomBytes(12).toString('hex').toUpperCase()}`;
const problem = (status: number, title: string): Answer => ({
  status,
  body: { type: 'about:blank', title, status },
});

/** Plausible answers of a participant, by operationId, for the operations Sika uses. */
const HANDLERS: Record<string, (request: Parsed, state: State) => Answer> = {
  webhookCreer: ({ body }, state) => {
    const webhook: Webhook = {
      ...(body as unknown as Omit<Webhook, 'id' | 'secret'>),
      id: randomUUID(),
      secret: `xsk_${randomBytes(24).toString('hex')}`,
    };
    state.webhooks.set(webhook.id, webhook);
    return { status: 201, body: { ...webhook, dateCreation: now() } };
  },
  webhookConsulter: ({ params }, state) => {
    const webhook = state.webhooks.get(params['id'] ?? '');
    if (!webhook) return problem(404, 'Not Found');
    const { secret: _secret, ...data } = webhook;
    return { status: 200, body: data };
  },
  webhookSupprimer: ({ params }, state) =>
    state.webhooks.delete(params['id'] ?? '') ? { status: 204 } : problem(404, 'Not Found'),
  demandePaiementCreer: ({ body }, state) => {
    const demande = { ...body, end2endId: end2endId(), dateDemande: now(), statut: 'ENVOYE' };
    state.demandes.set(String(body['txId']), demande);
    return { status: 200, body: demande };
  },
  demandePaiementRecuperer: ({ params }, state) => {
    const demande = state.demandes.get(params['txId'] ?? '');
    return demande ? { status: 200, body: demande } : problem(404, 'Not Found');
  },
  paiementCreer: ({ body }, state) => {
    const paiement = body['confirmation']
      ? { ...body, statut: 'INITIE', payeNom: 'Marchand Conforme', payePays: 'CI' }
      : { ...body, statut: 'ENVOYE', end2endId: end2endId(), categorie: '733' };
    state.paiements.set(String(body['txId']), paiement);
    return { status: 200, body: paiement };
  },
  paiementRecuperer: ({ params }, state) => {
    const paiement = state.paiements.get(params['txId'] ?? '');
    return paiement ? { status: 200, body: paiement } : problem(404, 'Not Found');
  },
  paiementConfirmer: ({ params }, state) =>
    state.paiements.delete(params['txId'] ?? '') ? { status: 204 } : problem(404, 'Not Found'),
  retourFondsEnvoyer: ({ params }) => ({
    status: 200,
    body: {
      end2endId: params['end2endId'] ?? '',
      statut: 'IRREVOCABLE',
      retourStatut: 'INITIE',
      retourDateDemande: now(),
    },
  }),
};

export interface MockOptions {
  /** The API Business document the requests are validated against (see packages/pispi's conformance-document). */
  documentPath: string;
  /** The participant's server certificate and key (PEM), valid for 127.0.0.1. */
  certificatePem: string;
  privateKeyPem: string;
  /** The CA whose client certificates are accepted: no other client can connect. */
  clientCaPem: string;
  clientId: string;
  clientSecret: string;
}

/**
 * A validating mock of a participant's API Business, over mutual TLS (the handshake fails without a client
 * certificate of `clientCaPem`). Every request is validated against the document (openapi-backend, ajv with
 * its formats): path, parameters, headers and body; token requests against RFC 6749 §4.4 and the document's
 * OAuth2 scheme (client credentials in HTTP Basic, scopes among the document's); and each operation's token
 * must hold the scope the document's `security` asks. A violation is recorded and answered 400, so a test
 * sees both what was wrong and that the client did not carry on as if it were fine.
 */
export class ApiBusinessMock {
  readonly violations: Violation[] = [];
  /** Every operation seen (its operationId, or `token`), in order. */
  readonly operations: string[] = [];
  private readonly state: State = { webhooks: new Map(), demandes: new Map(), paiements: new Map() };
  private readonly tokens = new Map<string, Set<string>>();
  private readonly scopes: Set<string>;
  private readonly api: OpenAPIBackend;
  private readonly server: Server;

  private constructor(
    private readonly options: MockOptions,
    document: Document,
  ) {
    const flows = (
      document.components?.securitySchemes?.['OAuth2'] as { flows: { clientCredentials: { scopes: object } } }
    ).flows;
    this.scopes = new Set(Object.keys(flows.clientCredentials.scopes));
    this.api = new OpenAPIBackend({
      definition: mergeAllOf(document),
      apiRoot: API_ROOT,
      // `quick` skips the check of the document itself, which has errors in parts Sika does not use (allOf
      // beside $ref in the bulk payments); the operations' schemas are still compiled and applied in full.
      quick: true,
      validate: true,
      customizeAjv: (ajv) => {
        addFormats(ajv);
        return ajv;
      },
    });
    this.server = createServer(
      {
        cert: options.certificatePem,
        key: options.privateKeyPem,
        ca: options.clientCaPem,
        requestCert: true,
        rejectUnauthorized: true,
      },
      (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => this.handle(request, Buffer.concat(chunks).toString('utf8'), response));
      },
    );
  }

  static async start(options: MockOptions): Promise<{ mock: ApiBusinessMock; origin: string }> {
    const document = JSON.parse(readFileSync(options.documentPath, 'utf8')) as Document;
    const mock = new ApiBusinessMock(options, document);
    await mock.api.init();
    await new Promise<void>((resolve) => mock.server.listen(0, '127.0.0.1', resolve));
    return { mock, origin: `https://127.0.0.1:${(mock.server.address() as AddressInfo).port}` };
  }

  /** The secret of the webhook registered for this alias (what the participant signs callbacks with). */
  secretFor(alias: string): string {
    const webhook = [...this.state.webhooks.values()].find((candidate) => candidate.alias === alias);
    if (!webhook) throw new Error(`no webhook registered for ${alias}`);
    return webhook.secret;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(request: IncomingMessage, text: string, response: ServerResponse): void {
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', 'https://participant.invalid');
    const label = `${method} ${url.pathname}`;
    // No client reaches here without a certificate of the CA: the handshake refused it.
    const answer =
      method === 'POST' && url.pathname === TOKEN_PATH
        ? this.token(request, text, label)
        : this.operation(request, url, text, label);
    const contentType = answer.status >= 400 ? 'application/problem+json' : 'application/json';
    response.writeHead(answer.status, answer.body === undefined ? {} : { 'content-type': contentType });
    response.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
  }

  private violation(request: string, problems: string[]): Answer {
    this.violations.push({ request, problems });
    return {
      status: 400,
      body: { type: 'about:blank', title: 'Bad Request', status: 400, detail: problems.join('; ') },
    };
  }

  /** RFC 6749 §4.4 with client authentication in HTTP Basic (§2.3.1), scopes among the document's. */
  private token(request: IncomingMessage, text: string, label: string): Answer {
    this.operations.push('token');
    const problems: string[] = [];
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      problems.push('content-type must be application/x-www-form-urlencoded');
    }
    const form = new URLSearchParams(text);
    if (form.get('grant_type') !== 'client_credentials')
      problems.push('grant_type must be client_credentials');
    const requested = (form.get('scope') ?? '').split(' ').filter((scope) => scope !== '');
    const unknown = requested.filter((scope) => !this.scopes.has(scope));
    if (unknown.length > 0) problems.push(`scopes not in the document: ${unknown.join(', ')}`);
    const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const [id, secret] = Buffer.from(basic ?? '', 'base64')
      .toString('utf8')
      .split(':')
      .map((part) => decodeURIComponent(part));
    if (id !== this.options.clientId || secret !== this.options.clientSecret) {
      problems.push('client credentials missing or wrong in HTTP Basic');
    }
    if (problems.length > 0) return this.violation(label, problems);
    const token = randomBytes(24).toString('hex');
    this.tokens.set(token, new Set(requested));
    return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: 300 } };
  }

  private operation(request: IncomingMessage, url: URL, text: string, label: string): Answer {
    const apiRequest: OpenApiRequest = {
      method: (request.method ?? 'GET').toLowerCase(),
      path: url.pathname,
      query: url.search.slice(1),
      headers: request.headers as OpenApiRequest['headers'],
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
    };
    const operation = this.api.matchOperation(apiRequest);
    if (!operation?.operationId) return this.violation(label, ['no such operation in the document']);
    this.operations.push(operation.operationId);
    const problems: string[] = [];
    const validation = this.api.validateRequest(apiRequest, operation);
    for (const error of validation.errors ?? [])
      problems.push(`${error.instancePath || '/'} ${error.message ?? ''}`);
    const granted = this.tokens.get(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '');
    if (!granted) return problem(401, 'Unauthorized');
    const needed = (operation.security ?? []).flatMap((requirement) => requirement['OAuth2'] ?? []);
    const missing = needed.filter((scope) => !granted.has(scope));
    if (missing.length > 0) problems.push(`the token lacks the scope ${missing.join(', ')}`);
    if (problems.length > 0) return this.violation(`${label} (${operation.operationId})`, problems);
    const handler = HANDLERS[operation.operationId];
    if (!handler) return this.violation(label, [`the mock does not play ${operation.operationId}`]);
    const { params } = this.api.router.parseRequest(apiRequest, operation);
    return handler(
      { body: (apiRequest.body ?? {}) as Parsed['body'], params: (params ?? {}) as Parsed['params'] },
      this.state,
    );
  }
}
