import { z } from 'zod';

/**
 * Configuration is the process environment, parsed once at start by a zod object whose keys are the
 * variable names (`DATABASE_URL`, `GRPC_PORT` …). Every problem is reported at once, so an operator fixes a
 * deployment in one round instead of one variable per crash.
 */
export type EnvSchema = z.ZodObject;

export interface ConfigProblem {
  variable: string;
  problem: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(readonly problems: readonly ConfigProblem[]) {
    super(
      `Invalid configuration: ${problems.map(({ variable, problem }) => `${variable} ${problem}`).join('; ')}`,
    );
  }
}

/** Kubernetes templates often render an unset value as an empty string: it counts as missing. */
function withoutEmptyValues(env: NodeJS.ProcessEnv): Record<string, string> {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') present[name] = value;
  }
  return present;
}

/** Parses `env` against `schema`; throws ConfigError naming every missing or invalid variable. */
export function loadConfig<S extends EnvSchema>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.output<S> {
  const input = withoutEmptyValues(env);
  const result = schema.safeParse(input);
  if (result.success) return result.data;

  const problems = new Map<string, string>();
  for (const issue of result.error.issues) {
    const variable = issue.path.length > 0 ? issue.path.map(String).join('.') : '(configuration)';
    if (problems.has(variable)) continue;
    // The value itself is never echoed: it may be a secret.
    problems.set(variable, input[variable] === undefined ? 'is missing' : `is invalid: ${issue.message}`);
  }
  throw new ConfigError([...problems].map(([variable, problem]) => ({ variable, problem })));
}

/**
 * For a process's main: the typed config, or a readable report on stderr and exit code 1. Written to stderr
 * directly rather than through the logger, because the logger's own settings come from this config.
 */
export function parseConfigOrExit<S extends EnvSchema>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.output<S> {
  try {
    return loadConfig(schema, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const lines = error.problems.map(({ variable, problem }) => `  ${variable} ${problem}\n`);
    process.stderr.write(`Invalid configuration\n${lines.join('')}`);
    process.exit(1);
  }
}

const DURATION = /^(\d+)(ms|s|m|h|d)?$/;
const MILLISECONDS_PER_UNIT = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses `500ms`, `30s`, `5m`, `2h`, `1d` or a bare number of milliseconds; undefined when malformed. */
export function parseDurationMs(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? 'ms') as keyof typeof MILLISECONDS_PER_UNIT;
  return Number(match[1]) * MILLISECONDS_PER_UNIT[unit];
}

/** Unquoted Postgres identifier: a schema name also goes into the `search_path` connection option. */
export const POSTGRES_SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];

/** `host:port` of a gRPC peer: a DNS name or IPv4 address, or an IPv6 address in brackets (`[::1]:8051`). */
const GRPC_ADDRESS = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$/;

/** Building blocks for env schemas; every variable arrives as a string. */
export const envVar = {
  string: () => z.string().min(1),
  port: () => z.coerce.number({ error: 'expected a port number' }).int().min(0).max(65_535),
  positiveInt: () => z.coerce.number({ error: 'expected a positive integer' }).int().positive(),
  /** A URL, optionally restricted to protocols given without the colon, e.g. `['postgres', 'postgresql']`. */
  url: (protocols?: readonly string[]) =>
    protocols === undefined
      ? z.url({ error: 'expected a URL' })
      : z.url({
          protocol: new RegExp(`^(${protocols.join('|')})$`),
          error: `expected a URL starting with ${protocols.map((protocol) => `${protocol}://`).join(' or ')}`,
        }),
  logLevel: () => z.enum(LOG_LEVELS),
  /** A Postgres schema name, as createPrismaClient accepts it. */
  postgresSchema: () =>
    z
      .string()
      .regex(POSTGRES_SCHEMA_NAME, { message: 'expected a lowercase Postgres identifier (a-z, 0-9, _)' }),
  boolean: () =>
    z
      .string()
      .transform((text) => text.trim().toLowerCase())
      .refine((text) => TRUE_WORDS.includes(text) || FALSE_WORDS.includes(text), {
        message: `expected one of ${[...TRUE_WORDS, ...FALSE_WORDS].join(', ')}`,
      })
      .transform((text) => TRUE_WORDS.includes(text)),
  /** Where a gRPC peer listens: `ledger:8054`, `127.0.0.1:8054` or `[::1]:8054`. */
  grpcAddress: () =>
    z.string().refine(
      (text) => {
        const port = GRPC_ADDRESS.exec(text)?.[1];
        return port !== undefined && Number(port) >= 1 && Number(port) <= 65_535;
      },
      { message: 'expected host:port, e.g. ledger:8054, 127.0.0.1:8054 or [::1]:8054' },
    ),
  /**
   * A duration such as `30s` or `5m`, parsed to milliseconds. Defaults are written the same way, as text
   * through `.prefault('5s')`, so that the README's defaults read as the code does.
   */
  durationMs: () =>
    z.string().transform((text, context) => {
      const milliseconds = parseDurationMs(text);
      if (milliseconds === undefined) {
        context.addIssue({ code: 'custom', message: 'expected a duration such as 500ms, 30s, 5m, 2h or 1d' });
        return z.NEVER;
      }
      return milliseconds;
    }),
};
