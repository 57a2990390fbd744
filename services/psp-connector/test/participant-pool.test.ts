import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testIdentity } from '@sika/testing';

import { configSchema } from '../src/config';
import { participantDirectory } from '../src/infra/participant-directory';

const POOL = 3;
const EXCHANGES = 10;

function answerNoContent(response: ServerResponse): void {
  response.statusCode = 204;
  response.end();
}

/**
 * A participant on loopback that answers tokens at once and holds every `DELETE /webhooks/{id}` until told,
 * counting the connections psp-connector opens to it.
 */
class HoldingParticipant {
  connections = 0;
  private readonly held: ServerResponse[] = [];
  private readonly server: Server;
  private whenHeld: { count: number; resolve: () => void } | undefined;
  private released = false;

  constructor() {
    this.server = createServer((request, response) => {
      request.resume();
      if (request.url === '/oauth/token') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ access_token: 'token', token_type: 'Bearer', expires_in: 3600 }));
        return;
      }
      if (this.released) {
        answerNoContent(response);
        return;
      }
      this.held.push(response);
      if (this.whenHeld && this.held.length >= this.whenHeld.count) this.whenHeld.resolve();
    });
    this.server.on('connection', () => {
      this.connections += 1;
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` exchanges are held at the same time. */
  holding(count: number): Promise<void> {
    return new Promise((resolve) => {
      this.whenHeld = { count, resolve };
      if (this.held.length >= count) resolve();
    });
  }

  /** Answers the held exchanges, and those that arrive from now on, with 204. */
  releaseAll(): void {
    this.released = true;
    for (const response of this.held.splice(0)) answerNoContent(response);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe("psp-connector's pool to a participant", () => {
  let participant: HoldingParticipant;
  let baseUrl: string;

  beforeEach(async () => {
    participant = new HoldingParticipant();
    baseUrl = await participant.listen();
  });
  afterEach(() => participant.close());

  it('opens PISPI_MAX_CONNECTIONS connections at most: a burst beyond them waits its turn, and all are answered', async () => {
    const config = configSchema.parse({
      ...(await testIdentity('psp-connector')).env,
      DATABASE_URL: 'postgres://sika_psp@127.0.0.1:5432/sika',
      AMQP_URL: 'amqp://127.0.0.1:5672',
      PSP_CALLBACK_PUBLIC_URL: 'http://127.0.0.1:8082',
      PISPI_TEST_BASE_URL: baseUrl,
      PISPI_TEST_CLIENT_ID: 'sika',
      PISPI_TEST_CLIENT_SECRET: 'secret',
      PISPI_TEST_PAYEE_ALIAS: 'sika-test',
      CALLBACK_SECRET_KEY: randomBytes(32).toString('base64'),
      PISPI_MAX_CONNECTIONS: String(POOL),
    });
    const client = participantDirectory(config).test!.client;

    const answers = Promise.all(
      Array.from({ length: EXCHANGES }, (_, index) => client.deleteWebhook(`wh_${index}`)),
    );
    // Every connection of the pool is busy with a held exchange; an unbounded pool opens one per exchange.
    await participant.holding(POOL);
    participant.releaseAll();

    expect(await answers).toEqual(Array.from({ length: EXCHANGES }, () => true));
    expect(participant.connections).toBe(POOL);
  });
});
