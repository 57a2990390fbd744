// Makes sure PostgreSQL, RabbitMQ and Redis answer before migrations, tests or the local stack need them.
// For each one, in this order: the URL from the environment (DATABASE_URL, AMQP_URL, REDIS_URL) must
// answer; else the default local port; else a container when a Docker engine answers; else, as root
// on Debian/Ubuntu, apt-get installs and starts it; else it stops with what to install or set.
//
// Plain Node with no dependencies: it runs before `pnpm install`. Each probe speaks a few bytes of the
// real protocol, because an open port alone is not a ready server (Docker's port proxy accepts
// connections while the container is still starting). Nothing is written but the servers it installs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { delimiter, join } from 'node:path';
import { Buffer } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';

const PG_HBA_MARKER = '# sika scripts/infra/ensure.mjs: trust local TCP connections (local development only)';

const SERVICES = [
  {
    name: 'postgres',
    envVar: 'DATABASE_URL',
    defaultUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
    defaultPort: 5432,
    probe: probePostgres,
    readyTimeoutMs: 60_000,
    docker: { container: 'sika-postgres', image: 'postgres:16', env: ['POSTGRES_HOST_AUTH_METHOD=trust'] },
    apt: { package: 'postgresql', isInstalled: () => postgresVersions().length > 0, start: startPostgres },
    installHint: 'PostgreSQL 15+ with trust auth for 127.0.0.1 (Debian: apt-get install postgresql)',
    urlHint: 'DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/postgres',
  },
  {
    name: 'rabbitmq',
    envVar: 'AMQP_URL',
    defaultUrl: 'amqp://guest:guest@127.0.0.1:5672',
    defaultPort: 5672,
    probe: probeRabbit,
    readyTimeoutMs: 120_000,
    docker: { container: 'sika-rabbitmq', image: 'rabbitmq:3.13', env: [] },
    apt: { package: 'rabbitmq-server', isInstalled: () => onPath('rabbitmq-server'), start: startRabbit },
    installHint: 'RabbitMQ 3.10+ with the guest user (Debian: apt-get install rabbitmq-server)',
    urlHint: 'AMQP_URL=amqp://USER:PASSWORD@HOST:5672',
  },
  {
    name: 'redis',
    envVar: 'REDIS_URL',
    defaultUrl: 'redis://127.0.0.1:6379',
    defaultPort: 6379,
    probe: probeRedis,
    readyTimeoutMs: 30_000,
    docker: { container: 'sika-redis', image: 'redis:7', env: [] },
    apt: { package: 'redis-server', isInstalled: () => onPath('redis-server'), start: startRedis },
    installHint: 'Redis 6+ (Debian: apt-get install redis-server)',
    urlHint: 'REDIS_URL=redis://HOST:6379',
  },
];

// ---- protocol probes: each resolves { state: 'ready' | 'starting' | 'absent' | 'refused', detail } ----

/** Connects, writes `request`, and collects bytes until `complete(buffer)` says a full answer came. */
function exchange(host, port, request, complete, timeoutMs = 2_000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let received = Buffer.alloc(0);
    let connected = false;
    const finish = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () =>
      finish(connected ? { state: 'starting', detail: 'no answer' } : absent()),
    );
    socket.on('connect', () => {
      connected = true;
      socket.write(request);
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const answer = complete(received);
      if (answer) finish(answer);
    });
    socket.on('error', () =>
      finish(connected ? { state: 'starting', detail: 'connection reset' } : absent()),
    );
    socket.on('end', () => finish({ state: 'starting', detail: 'connection closed without an answer' }));
  });
}

const absent = () => ({ state: 'absent', detail: 'nothing answers' });

/** Sends a StartupMessage and reads the first answer: an authentication request or an error. */
function probePostgres(url) {
  const user = decodeURIComponent(url.username) || 'postgres';
  const database = decodeURIComponent(url.pathname.slice(1)) || user;
  const params = Buffer.from(`user\0${user}\0database\0${database}\0\0`);
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + params.length, 0);
  header.writeInt32BE(196_608, 4); // protocol 3.0
  return exchange(url.hostname, Number(url.port || 5432), Buffer.concat([header, params]), (buffer) => {
    if (buffer.length < 5) return undefined;
    const kind = String.fromCharCode(buffer[0]);
    const length = buffer.readInt32BE(1);
    if (buffer.length < length + 1) return undefined;
    if (kind === 'R') {
      const code = buffer.readInt32BE(5);
      return { state: 'ready', detail: code === 0 ? 'trust' : 'password', trust: code === 0 };
    }
    if (kind === 'E') {
      const fields = Object.fromEntries(
        buffer
          .subarray(5, length + 1)
          .toString()
          .split('\0')
          .filter(Boolean)
          .map((field) => [field[0], field.slice(1)]),
      );
      // 57P03 cannot_connect_now: starting up, shutting down or in recovery
      if (fields.C === '57P03') return { state: 'starting', detail: fields.M };
      return { state: 'refused', detail: fields.M ?? 'error' };
    }
    return { state: 'refused', detail: 'not a PostgreSQL server' };
  });
}

/** Sends the AMQP 0-9-1 protocol header; a broker answers with a Connection.Start method frame. */
function probeRabbit(url) {
  const request = Buffer.from([0x41, 0x4d, 0x51, 0x50, 0, 0, 9, 1]);
  return exchange(url.hostname, Number(url.port || 5672), request, (buffer) => {
    if (buffer.length < 1) return undefined;
    return buffer[0] === 1
      ? { state: 'ready', detail: 'amqp 0-9-1' }
      : { state: 'refused', detail: 'not an AMQP 0-9-1 broker' };
  });
}

/** Sends PING: +PONG (or an auth error, which still means a live server); -LOADING means starting. */
function probeRedis(url) {
  return exchange(url.hostname, Number(url.port || 6379), Buffer.from('PING\r\n'), (buffer) => {
    const text = buffer.toString();
    if (!text.includes('\r\n')) return undefined;
    if (text.startsWith('+PONG') || text.startsWith('-NOAUTH')) return { state: 'ready', detail: 'redis' };
    if (text.startsWith('-LOADING')) return { state: 'starting', detail: 'loading dataset' };
    return { state: 'refused', detail: text.trim() };
  });
}

async function waitReady(service, url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let result = await service.probe(url);
  while (result.state !== 'ready' && result.state !== 'refused' && Date.now() < deadline) {
    await sleep(250);
    result = await service.probe(url);
  }
  return result;
}

// ---- provisioning ----

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: 'pipe', ...options });
  return {
    ok: result.status === 0,
    status: result.status,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}`,
  };
}

function runOrThrow(command, args, options) {
  const result = run(command, args, options);
  if (!result.ok) {
    const tail = result.output.trim().split('\n').slice(-15).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${tail}`);
  }
  return result;
}

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

function dockerEngineAnswers() {
  return onPath('docker') && run('docker', ['info'], { timeout: 5_000 }).ok;
}

function startContainer({ container, image, env }, port) {
  if (run('docker', ['container', 'inspect', container]).ok) {
    runOrThrow('docker', ['start', container]);
    return;
  }
  const envArgs = env.flatMap((pair) => ['-e', pair]);
  runOrThrow(
    'docker',
    ['run', '-d', '--name', container, '-p', `127.0.0.1:${port}:${port}`, ...envArgs, image],
    {
      timeout: 600_000,
    },
  );
}

function aptUsable() {
  return process.getuid?.() === 0 && onPath('apt-get') && existsSync('/etc/debian_version');
}

function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  runOrThrow('apt-get', ['update'], { env, timeout: 600_000 });
  runOrThrow('apt-get', ['install', '-y', '--no-install-recommends', ...packages], {
    env,
    timeout: 1_200_000,
  });
}

/** Debian's PostgreSQL versions with a "main" cluster, newest first. */
function postgresVersions() {
  if (!existsSync('/usr/lib/postgresql')) return [];
  return readdirSync('/usr/lib/postgresql')
    .filter((version) => existsSync(`/usr/lib/postgresql/${version}/bin/postgres`))
    .sort((a, b) => Number(b) - Number(a));
}

function startPostgres({ installedNow }) {
  const [version] = postgresVersions();
  if (!existsSync(`/etc/postgresql/${version}/main`)) runOrThrow('pg_createcluster', [version, 'main']);
  // Only a server this script installed gets its access rules changed, never one the user configured.
  if (installedNow) trustLocalTcp(`/etc/postgresql/${version}/main/pg_hba.conf`);
  const started = run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
  // exit 2 = already running (the package's postinst may have started it): reload to read pg_hba.conf
  if (started.status === 2)
    runOrThrow('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'reload']);
  else if (!started.ok)
    throw new Error(`pg_ctlcluster ${version} main start failed:\n${started.output.trim()}`);
}

function trustLocalTcp(hbaPath) {
  const current = readFileSync(hbaPath, 'utf8');
  if (current.includes(PG_HBA_MARKER)) return;
  const rules = `${PG_HBA_MARKER}\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n\n`;
  writeFileSync(hbaPath, rules + current);
}

function startRabbit() {
  runOrThrow('rabbitmq-server', ['-detached']);
}

function startRedis() {
  for (const dir of ['/var/lib/redis', '/var/log/redis']) mkdirSync(dir, { recursive: true });
  runOrThrow('redis-server', [
    '--daemonize',
    'yes',
    '--bind',
    '127.0.0.1',
    '-::1',
    '--port',
    '6379',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    '/var/lib/redis',
    '--logfile',
    '/var/log/redis/sika.log',
  ]);
}

// ---- main ----

const address = (service, url) => `${url.hostname}:${url.port || service.defaultPort}`;
const line = (service, url, how) => `${service.name.padEnd(9)} ${address(service, url)} ready (${how})`;
const failure = (service, why) => `${service.name}: ${why}`;

function defaultUrl(service) {
  const url = new URL(service.defaultUrl);
  url.port = String(service.defaultPort);
  return url;
}

/** The default URL logs in as postgres without a password, so a local server must trust it. */
function passwordProblem(service, url, result) {
  if (service.name !== 'postgres' || result.trust) return undefined;
  return failure(
    service,
    `${address(service, url)} asks user postgres for a password: set ${service.urlHint}`,
  );
}

/** What is there now: { line } when usable, { error } when not, { missing: true } when nothing answers. */
async function check(service) {
  const given = process.env[service.envVar];
  if (given) {
    const url = new URL(given);
    const result = await waitReady(service, url, 10_000);
    if (result.state === 'ready') return { line: line(service, url, service.envVar) };
    return {
      error: failure(service, `${service.envVar} points at ${address(service, url)}: ${result.detail}`),
    };
  }
  const url = defaultUrl(service);
  let result = await service.probe(url);
  if (result.state === 'starting') result = await waitReady(service, url, service.readyTimeoutMs);
  if (result.state === 'absent') return { missing: true };
  if (result.state !== 'ready') {
    return {
      error: failure(service, `${address(service, url)} answers but is not usable: ${result.detail}`),
    };
  }
  const problem = passwordProblem(service, url, result);
  return problem ? { error: problem } : { line: line(service, url, 'already running') };
}

async function main() {
  const outcomes = await Promise.all(SERVICES.map(check));
  const errors = [];
  for (const outcome of outcomes) {
    if (outcome.line) console.log(outcome.line);
    if (outcome.error) errors.push(outcome.error);
  }
  const missing = SERVICES.filter((_, index) => outcomes[index].missing);
  if (missing.length > 0) errors.push(...(await provision(missing)));
  if (errors.length > 0) {
    console.error(`\n${errors.join('\n')}`);
    process.exit(1);
  }
}

/** Starts what is missing, in order, with Docker or apt-get; returns the error messages. */
async function provision(missing) {
  const useDocker = dockerEngineAnswers();
  const useApt = !useDocker && aptUsable();
  if (!useDocker && !useApt) {
    const wanted = missing.map(
      (service) => `  ${service.name}: install ${service.installHint}, or set ${service.urlHint}`,
    );
    return [
      `Nothing answers on the default ports of ${missing.map((service) => service.name).join(', ')}, ` +
        'no Docker engine answers, and installing with apt-get needs root on Debian/Ubuntu. ' +
        'Start a Docker engine, or:',
      ...wanted,
    ];
  }

  const installedNow = new Set();
  const toInstall = useApt ? missing.filter((service) => !service.apt.isInstalled()) : [];
  if (toInstall.length > 0) {
    const packages = toInstall.map((service) => service.apt.package);
    console.log(`installing ${packages.join(' ')} with apt-get (a minute or two)...`);
    try {
      aptInstall(packages);
    } catch (error) {
      return [`apt-get: ${error.message}`];
    }
    for (const service of toInstall) installedNow.add(service.name);
  }

  const errors = [];
  for (const service of missing) {
    const url = defaultUrl(service);
    const how = useDocker
      ? `container ${service.docker.container}`
      : `${installedNow.has(service.name) ? 'installed with apt-get, ' : ''}started`;
    try {
      if (useDocker) startContainer(service.docker, service.defaultPort);
      else service.apt.start({ installedNow: installedNow.has(service.name) });
    } catch (error) {
      errors.push(failure(service, error.message));
      continue;
    }
    const result = await waitReady(service, url, service.readyTimeoutMs);
    const problem =
      result.state === 'ready'
        ? passwordProblem(service, url, result)
        : failure(
            service,
            `${how}, but not usable after ${service.readyTimeoutMs / 1000}s: ${result.detail}`,
          );
    if (problem) errors.push(problem);
    else console.log(line(service, url, how));
  }
  return errors;
}

await main();
