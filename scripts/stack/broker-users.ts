import { spawn } from 'node:child_process';

import {
  BROKER_SERVICES,
  brokerDefinitions,
  brokerUser,
  type BrokerDefinitions,
  type BrokerService,
} from '../../packages/messaging/src/accounts';
import { isLocalServer } from '../db/urls';

/**
 * Creates or updates the services' RabbitMQ users, each with its own password and the permissions
 * packages/messaging/src/accounts.ts derives from the events contract, as one definitions document: through
 * rabbitmqctl when the broker runs on this machine (as root or the rabbitmq user), else through the
 * management plugin's HTTP API, with the administrator login of the broker URL.
 */

/** What one way of administering the broker can do. */
export interface BrokerAdmin {
  /** How it reaches the broker, for messages. */
  readonly via: string;
  /** Creates or updates vhosts, users, passwords and permissions (a RabbitMQ definitions document). */
  importDefinitions(definitions: BrokerDefinitions): Promise<void>;
  deleteVhost(vhost: string): Promise<void>;
  deleteUser(user: string): Promise<void>;
}

export interface BrokerAdminOptions {
  /** An administrator's AMQP URL (guest locally): its host, and its login for the HTTP API. */
  adminUrl: string;
  /** The HTTP API's base URL; default http://<host of adminUrl>:15672. */
  managementUrl?: string | undefined;
}

/** The first way that answers, or why none does. */
export async function findBrokerAdmin(
  options: BrokerAdminOptions,
): Promise<{ admin: BrokerAdmin } | { unavailable: string }> {
  const reasons: string[] = [];
  if (isLocalServer(options.adminUrl, {})) {
    const ctl = new RabbitmqctlAdmin();
    const failure = await ctl.probe();
    if (failure === undefined) return { admin: ctl };
    reasons.push(`rabbitmqctl: ${failure}`);
  } else {
    reasons.push('rabbitmqctl: the broker is not on this machine');
  }
  const api = new ManagementApiAdmin(options);
  const failure = await api.probe();
  if (failure === undefined) return { admin: api };
  reasons.push(`management API at ${api.baseUrl}: ${failure}`);
  return { unavailable: reasons.join('; ') };
}

export interface ProvisionOptions extends BrokerAdminOptions {
  vhost: string;
  passwordOf: (service: BrokerService) => string;
  /** One line per outcome. */
  log: (line: string) => void;
}

/** What to run by hand when no way of administering the broker answers. */
const BY_HAND =
  'node --import tsx scripts/stack/broker-definitions.ts | rabbitmqctl import_definitions' +
  ' (on the broker\'s machine, e.g. through "docker exec -i <container>"), or POST its output to the' +
  " management API's /api/definitions as an administrator";

/**
 * Provisions the users of the local stack. Without rabbitmqctl or the HTTP API it says what to run by hand
 * and goes on: users made that way once keep working, and a service that cannot log in says so itself.
 */
export async function provisionBrokerUsers(options: ProvisionOptions): Promise<void> {
  const found = await findBrokerAdmin(options);
  const users = BROKER_SERVICES.map((service) => brokerUser(service)).join(', ');
  if ('unavailable' in found) {
    options.log(
      `cannot create the RabbitMQ users ${users} (${found.unavailable}). Create them as the broker's ` +
        `administrator: ${BY_HAND}`,
    );
    return;
  }
  await found.admin.importDefinitions(brokerDefinitions(options));
  options.log(`RabbitMQ users ${users} in vhost ${options.vhost}, through ${found.admin.via}`);
}

class RabbitmqctlAdmin implements BrokerAdmin {
  readonly via = 'rabbitmqctl';

  /** Undefined when rabbitmqctl reaches the node, else why not. */
  async probe(): Promise<string | undefined> {
    try {
      await rabbitmqctl(['list_vhosts']);
      return undefined;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }

  async importDefinitions(definitions: BrokerDefinitions): Promise<void> {
    // Without a file argument it reads standard input, so the passwords never touch the disk.
    await rabbitmqctl(['import_definitions', '--format', 'json'], JSON.stringify(definitions));
  }

  async deleteVhost(vhost: string): Promise<void> {
    await rabbitmqctl(['delete_vhost', vhost]);
  }

  async deleteUser(user: string): Promise<void> {
    await rabbitmqctl(['delete_user', user]);
  }
}

function rabbitmqctl(args: readonly string[], input?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('rabbitmqctl', ['-q', ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'ENOENT' ? 'not installed' : err.message)),
    );
    child.once('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`rabbitmqctl ${args[0]} exited ${code}: ${stderr.trim().split('\n')[0] ?? ''}`)),
    );
    child.stdin.end(input ?? '');
  });
}

class ManagementApiAdmin implements BrokerAdmin {
  readonly via: string;
  readonly baseUrl: string;
  private readonly authorization: string;

  constructor(options: BrokerAdminOptions) {
    const amqp = new URL(options.adminUrl);
    this.baseUrl = (options.managementUrl ?? `http://${amqp.hostname}:15672`).replace(/\/$/, '');
    this.via = `the management API at ${this.baseUrl}`;
    const user = decodeURIComponent(amqp.username) || 'guest';
    const password = decodeURIComponent(amqp.password) || 'guest';
    this.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }

  async probe(): Promise<string | undefined> {
    try {
      await this.request('GET', '/api/whoami');
      return undefined;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }

  async importDefinitions(definitions: BrokerDefinitions): Promise<void> {
    await this.request('POST', '/api/definitions', definitions);
  }

  async deleteVhost(vhost: string): Promise<void> {
    await this.request('DELETE', `/api/vhosts/${encodeURIComponent(vhost)}`);
  }

  async deleteUser(user: string): Promise<void> {
    await this.request('DELETE', `/api/users/${encodeURIComponent(user)}`);
  }

  private async request(method: string, path: string, body?: unknown): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { authorization: this.authorization, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(5_000),
      });
    } catch (err) {
      throw new Error(`no answer (${err instanceof Error ? err.message : String(err)})`);
    }
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
  }
}
