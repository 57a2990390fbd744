import path from 'node:path';

import { merchantsV1 } from '@sika/contracts';
import { createGrpcClient, createLogger, loadConfig, type Clock, type LogLevel } from '@sika/platform';
import {
  createTestRedis,
  createTestSchema,
  loggedPort,
  resolveInfra,
  spawnService,
  stopGracefully,
  testIdentity,
  type SpawnedProcess,
  type TestRedis,
  type TestSchema,
} from '@sika/testing';

import { composeDashboard, type Dashboard } from '../../src/compose';
import { configSchema } from '../../src/config';
import { createAccountsSchema, type AccountsSchema } from './accounts';

const MERCHANTS_MIGRATIONS = path.resolve(__dirname, '../../../merchants/prisma/migrations');
/** No service listens there: a page that would need payments, payouts, ledger or webhooks fails loudly. */
const NOBODY = '127.0.0.1:9';

/**
 * The dashboard in this process on its own schema and Redis prefix, with the real merchants service as a child
 * process on a schema of its own (sign-up creates merchants there): what the account pages and the forms'
 * refusals need. A browser is played by `DashboardBrowser`: cookies kept, the CSRF token read off each form.
 */
export class DashboardServer {
  private constructor(
    readonly url: string,
    private readonly dashboard: Dashboard,
    private readonly merchants: SpawnedProcess,
    private readonly merchantsDb: TestSchema,
    private readonly accounts: AccountsSchema,
    private readonly redis: TestRedis,
    private readonly merchantsAddress: string,
  ) {}

  static async start(
    name: string,
    env: Record<string, string> = {},
    { clock }: { clock?: Clock } = {},
  ): Promise<DashboardServer> {
    const infra = await resolveInfra();
    const merchantsDb = await createTestSchema({
      prefix: `dashboard_${name}_merchants`,
      migrationsDir: MERCHANTS_MIGRATIONS,
    });
    const merchants = await spawnService('merchants', {
      env: {
        DATABASE_URL: merchantsDb.databaseUrl,
        DATABASE_SCHEMA: merchantsDb.schema,
        API_KEY_PEPPER: 'dashboard-test-pepper-0123456789-abcdefghijkl',
      },
      readyMessage: 'grpc server listening',
    });
    const merchantsPort = await loggedPort(merchants, 'grpc server listening');
    const accounts = await createAccountsSchema(`dashboard_${name}`);
    const redis = await createTestRedis({ prefix: `dashboard_${name}` });
    const config = loadConfig(configSchema, {
      HTTP_PORT: '0',
      METRICS_PORT: '0',
      DATABASE_URL: accounts.schema.databaseUrl,
      DATABASE_SCHEMA: accounts.schema.schema,
      REDIS_URL: infra.redisUrl,
      MERCHANTS_GRPC_ADDRESS: `127.0.0.1:${merchantsPort}`,
      PAYMENTS_GRPC_ADDRESS: NOBODY,
      LEDGER_GRPC_ADDRESS: NOBODY,
      WEBHOOKS_GRPC_ADDRESS: NOBODY,
      PAYOUTS_GRPC_ADDRESS: NOBODY,
      GRPC_DEADLINE: '10s',
      COOKIE_SECURE: 'false',
      // Each browser of a test says which client address it is, as the ingress would.
      TRUST_PROXY_HOPS: '1',
      ...(await testIdentity('dashboard-web')).env,
      ...env,
    });
    const logger = createLogger({
      service: 'dashboard-web-test',
      level: (process.env.TEST_LOG_LEVEL ?? 'silent') as LogLevel,
    });
    const dashboard = composeDashboard(config, { logger, redis: redis.redis, ...(clock && { clock }) });
    await dashboard.start();
    return new DashboardServer(
      `http://127.0.0.1:${dashboard.http.port}`,
      dashboard,
      merchants,
      merchantsDb,
      accounts,
      redis,
      `127.0.0.1:${merchantsPort}`,
    );
  }

  /** The emails merchants recorded to `to`, oldest first, read as an operator does (ListEmails, as cli). */
  async emailsTo(to: string): Promise<merchantsV1.Email[]> {
    const client = createGrpcClient(merchantsV1.MerchantsServiceClient, this.merchantsAddress, {
      deadlineMs: 5_000,
      tls: (await testIdentity('cli')).tls,
    });
    try {
      const { emails } = await client.listEmails({ merchantId: '', limit: 100 });
      return emails.filter((email) => email.to === to).reverse();
    } finally {
      client.close();
    }
  }

  /** A browser at `address` (X-Forwarded-For), by default one of its own. */
  browser(address = `198.51.100.${Math.floor(Math.random() * 254) + 1}`): DashboardBrowser {
    return new DashboardBrowser(this.url, address);
  }

  async close(): Promise<void> {
    await this.dashboard.stop();
    await stopGracefully(this.merchants);
    await Promise.all([this.accounts.close(), this.merchantsDb.drop(), this.redis.cleanup()]);
  }
}

/** The CSRF cookie's name where cookies are not Secure (COOKIE_SECURE=false). */
const CSRF_COOKIE = 'sika_csrf';

export interface PageAnswer {
  status: number;
  headers: Headers;
  html: string;
}

/** One person's browser: its cookies, and form posts as the page's own forms send them. */
export class DashboardBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly origin: string,
    private readonly address: string,
  ) {}

  async get(pathname: string): Promise<PageAnswer> {
    return this.answer(
      await fetch(`${this.origin}${pathname}`, { headers: this.headers(), redirect: 'manual' }),
    );
  }

  /**
   * Posts `fields` to `action` from this origin, as a form of the dashboard does: with the CSRF token, which is
   * the CSRF cookie's value (double submit; the sign-in page sets it first when the browser has none).
   */
  async submit(action: string, fields: Record<string, string>): Promise<PageAnswer> {
    if (!this.cookies.has(CSRF_COOKIE)) await this.get('/signin');
    const token = this.cookies.get(CSRF_COOKIE) ?? '';
    const response = await fetch(`${this.origin}${action}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        ...this.headers(),
        Origin: this.origin,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ _csrf: token, ...fields }).toString(),
    });
    return this.answer(response);
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'X-Forwarded-For': this.address };
    if (this.cookies.size > 0) {
      headers['Cookie'] = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    return headers;
  }

  private async answer(response: Response): Promise<PageAnswer> {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      const [name, value] = [pair.slice(0, separator), pair.slice(separator + 1)];
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, html: await response.text() };
  }
}
