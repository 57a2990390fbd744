import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';

import {
  DemandePaiementConsultationReponse,
  DemandePaiementReponse,
  type DemandePaiementRequest,
} from '../schemas/demande-paiement';
import { PISPI_SCOPES } from '../schemas/oauth';
import {
  Paiement,
  PaiementImmediatConfirmationReponse,
  PaiementImmediatReponse,
  type PaiementImmediatRequest,
} from '../schemas/paiement';
import { WebhookCreationResponse, WebhookData, type WebhookCreationRequest } from '../schemas/webhook';
import { PispiNetworkError, PispiProblemError, PispiResponseError } from './errors';
import { followingRedirects, isSuccess, send, type HttpAnswer } from './http';
import { readProblem } from './problem-body';
import { TokenProvider } from './token-provider';

export interface PispiClientOptions {
  /** The API's base URL, path included (e.g. `https://sandbox.api.pi-bceao.com/piz/v1`). */
  baseUrl: string;
  /** The OAuth2 token endpoint (the security scheme's tokenUrl). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Scopes asked for; Sika's subset by default. */
  scopes?: readonly string[];
  /** Bound of each HTTP exchange, token request included. */
  timeoutMs?: number;
  /** Milliseconds since the epoch, for token expiry; Date.now by default. */
  now?: () => number;
  /**
   * Carries every exchange, token requests included: an undici Agent holding the client certificate and
   * the participant's CA, for mutual TLS. A plain pool of the client's own when absent.
   */
  dispatcher?: Dispatcher;
  /** Told of each exchange once it ended (the caller's metrics): its operation, outcome and duration. */
  observe?: (exchange: ObservedExchange) => void;
}

/** One exchange with the API as `observe` is told of it (a token renewal and its repeat are one). */
export interface ObservedExchange {
  /** `POST /demandes-paiements`, `GET /demandes-paiements/{txId}` …: the method and the path's template. */
  operation: string;
  /** `ok` (2xx), `not_found`, `client_error` (other 4xx), `server_error` (5xx) or `network_error` (no answer). */
  outcome: 'ok' | 'not_found' | 'client_error' | 'server_error' | 'network_error';
  durationMs: number;
}

/** A registered webhook as the registration answer gives it: id and secret are what Sika keeps. */
export interface RegisteredWebhook {
  id: string;
  secret: string;
  response: WebhookCreationResponse;
}

const DEFAULT_TIMEOUT_MS = 10_000;

interface Exchange {
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

interface CallSpec<S extends z.ZodType> extends Exchange {
  /** Validates a success answer. */
  schema: S;
  /** Resolve 404 to null instead of throwing. */
  notFoundAsNull?: boolean;
}

/**
 * A typed client of Sika's subset of the API Business. Every answer is validated with the package's zod
 * schemas; failures are PispiError subclasses (problem, network or unexpected body). A token the API refuses
 * (401) is renewed once and the call repeated: the participant may have restarted and forgotten it.
 */
export class PispiClient {
  private readonly tokens: TokenProvider;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly dispatcher: Dispatcher;
  private readonly observe: ((exchange: ObservedExchange) => void) | undefined;

  constructor(options: PispiClientOptions) {
    this.observe = options.observe;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.dispatcher = followingRedirects(options.dispatcher ?? new Agent());
    this.tokens = new TokenProvider({
      tokenUrl: options.tokenUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scopes: options.scopes ?? PISPI_SCOPES,
      timeoutMs: this.timeoutMs,
      now: options.now ?? Date.now,
      dispatcher: this.dispatcher,
    });
  }

  /** `POST /webhooks`. The secret is in this answer only: keep it. */
  async createWebhook(request: WebhookCreationRequest): Promise<RegisteredWebhook> {
    const operation = 'POST /webhooks';
    const response = await this.call({
      operation,
      method: 'POST',
      path: '/webhooks',
      body: request,
      schema: WebhookCreationResponse,
    });
    if (!response.id || !response.secret) throw new PispiResponseError(201, operation, 'no id or no secret');
    return { id: response.id, secret: response.secret, response };
  }

  /** `GET /webhooks/{id}`; null when the participant does not know it (any more). */
  getWebhook(id: string): Promise<WebhookData | null> {
    return this.call({
      operation: 'GET /webhooks/{id}',
      method: 'GET',
      path: `/webhooks/${encodeURIComponent(id)}`,
      schema: WebhookData,
      notFoundAsNull: true,
    });
  }

  /** `DELETE /webhooks/{id}`; false when it did not exist. */
  async deleteWebhook(id: string): Promise<boolean> {
    const operation = 'DELETE /webhooks/{id}';
    const { status, text } = await this.exchange({
      operation,
      method: 'DELETE',
      path: `/webhooks/${encodeURIComponent(id)}`,
    });
    if (status === 404) return false;
    if (!isSuccess(status)) throw new PispiProblemError(status, readProblem(status, text), operation);
    return true;
  }

  /** `POST /demandes-paiements`. A rejection (REJETE + statutRaison) is an answer, not an error. */
  async createDemandePaiement(request: DemandePaiementRequest): Promise<DemandePaiementReponse> {
    const operation = 'POST /demandes-paiements';
    const response = await this.call({
      operation,
      method: 'POST',
      path: '/demandes-paiements',
      body: request,
      schema: DemandePaiementReponse,
    });
    if (response.statut === undefined) throw new PispiResponseError(200, operation, 'no statut');
    return response;
  }

  /** `GET /demandes-paiements/{txId}`; null when the participant has no request with that txId. */
  getDemandePaiement(txId: string): Promise<DemandePaiementConsultationReponse | null> {
    return this.call({
      operation: 'GET /demandes-paiements/{txId}',
      method: 'GET',
      path: `/demandes-paiements/${encodeURIComponent(txId)}`,
      schema: DemandePaiementConsultationReponse,
      notFoundAsNull: true,
    });
  }

  /**
   * `PUT /paiements/{end2endId}/retours`: returns a received payment whole. Idempotent per end2endId: a return
   * already irrevocable is answered as it is, a rejected one is sent again. A 403 (past the 90 days) or a 404
   * is a PispiProblemError with that status.
   */
  returnFunds(end2endId: string): Promise<Paiement> {
    return this.call({
      operation: 'PUT /paiements/{end2endId}/retours',
      method: 'PUT',
      path: `/paiements/${encodeURIComponent(end2endId)}/retours`,
      schema: Paiement,
    });
  }

  /**
   * `POST /paiements`: a credit transfer to an alias, or with `confirmation: true` a name lookup (INITIE with
   * payeNom). A rejection (REJETE + statutRaison) is an answer, not an error; a 400 or 403 (a rule, e.g. a
   * ceiling) is a PispiProblemError that will not change on retry.
   */
  async createPaiement(request: PaiementImmediatRequest): Promise<PaiementImmediatReponse> {
    const operation = 'POST /paiements';
    const response = await this.call({
      operation,
      method: 'POST',
      path: '/paiements',
      body: request,
      schema: PaiementImmediatReponse,
    });
    if (response.statut === undefined) throw new PispiResponseError(200, operation, 'no statut');
    return response;
  }

  /** `GET /paiements/{txId}`; null when the participant has no transfer with that txId. */
  getPaiement(txId: string): Promise<Paiement | null> {
    return this.call({
      operation: 'GET /paiements/{txId}',
      method: 'GET',
      path: `/paiements/${encodeURIComponent(txId)}`,
      schema: Paiement,
      notFoundAsNull: true,
    });
  }

  /**
   * `PUT /paiements/{txId}/confirmations` after a name lookup: `decision: true` sends the transfer (answered
   * with it), `false` drops it (answered null: the document gives it a 204, and a 200 `ANNULE` in one
   * example). Idempotent at the participant; the opposite of a decision taken is a 403 PispiProblemError.
   */
  async confirmPaiement(
    txId: string,
    decision: boolean,
  ): Promise<PaiementImmediatConfirmationReponse | null> {
    const operation = 'PUT /paiements/{txId}/confirmations';
    const spec = {
      operation,
      method: 'PUT' as const,
      path: `/paiements/${encodeURIComponent(txId)}/confirmations`,
      body: { decision },
    };
    if (!decision) {
      const { status, text } = await this.exchange(spec);
      if (!isSuccess(status)) throw new PispiProblemError(status, readProblem(status, text), operation);
      return null;
    }
    return this.call({ ...spec, schema: PaiementImmediatConfirmationReponse });
  }

  private call<S extends z.ZodType>(
    spec: CallSpec<S> & { notFoundAsNull: true },
  ): Promise<z.output<S> | null>;
  private call<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>>;
  private async call<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S> | null> {
    const { status, text } = await this.exchange(spec);
    if (status === 404 && spec.notFoundAsNull) return null;
    if (!isSuccess(status)) throw new PispiProblemError(status, readProblem(status, text), spec.operation);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new PispiResponseError(status, spec.operation, 'not JSON');
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) throw new PispiResponseError(status, spec.operation, parsed.error.message);
    return parsed.data;
  }

  /** An exchange, told to `observe` once it ended. */
  private async exchange(spec: Exchange): Promise<HttpAnswer> {
    const started = performance.now();
    let outcome: ObservedExchange['outcome'] = 'network_error';
    try {
      const answer = await this.authenticatedExchange(spec);
      outcome = outcomeOf(answer.status);
      return answer;
    } finally {
      this.observe?.({ operation: spec.operation, outcome, durationMs: performance.now() - started });
    }
  }

  /** One authenticated exchange, repeated once with a new token if the API refused the cached one. */
  private async authenticatedExchange(spec: Exchange): Promise<HttpAnswer> {
    const token = await this.tokens.token();
    const first = await this.send(spec, token);
    if (first.status !== 401) return first;
    this.tokens.invalidate(token);
    return this.send(spec, await this.tokens.token());
  }

  private async send(spec: Exchange, token: string): Promise<HttpAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await send(this.dispatcher, `${this.baseUrl}${spec.path}`, {
        method: spec.method,
        headers,
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        timeoutMs: this.timeoutMs,
      });
    } catch (error) {
      throw new PispiNetworkError(spec.operation, error);
    }
  }
}

function outcomeOf(status: number): ObservedExchange['outcome'] {
  if (isSuccess(status)) return 'ok';
  if (status === 404) return 'not_found';
  return status < 500 ? 'client_error' : 'server_error';
}
