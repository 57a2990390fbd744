import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describeServer, isLocalServer } from './urls';

/** Where one service keeps its data: its Postgres schema, its two roles, its Prisma files. */
export interface ServiceDatabase {
  /** Folder name under services/, e.g. `psp-connector`. */
  service: string;
  serviceDir: string;
  /** Postgres schema, e.g. `psp`. */
  schema: string;
  /** Owns the schema and everything in it; only migrations log in with it, e.g. `sika_psp_owner`. */
  ownerRole: string;
  /** The service's own login: reads and writes rows, owns nothing, e.g. `sika_psp`. */
  runtimeRole: string;
  /** What prisma takes as schema: the `prisma/schema` folder (multi-file) or `prisma/schema.prisma`. */
  prismaSchemaPath: string;
  /** Committed migrations: `prisma/migrations`, beside the schema. */
  migrationsDir: string;
}

export const DEFAULT_ROLE_PREFIX = 'sika_';

/** The database Sika's schemas live in: `SIKA_DB_NAME`, else `sika` (db:migrate, the stack, the benchmark). */
export function localDatabaseName(env: NodeJS.ProcessEnv): string {
  return env.SIKA_DB_NAME ?? 'sika';
}

const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export function assertPlainIdentifier(name: string, what: string): void {
  if (!PLAIN_IDENTIFIER.test(name) || name.length > 63) {
    throw new Error(`${what} "${name}" must be lowercase letters, digits and _ (at most 63 characters)`);
  }
}

/** A multi-file `prisma/schema/` folder wins over a single `prisma/schema.prisma`; undefined when neither exists. */
export function locatePrismaSchema(serviceDir: string): string | undefined {
  const folder = path.join(serviceDir, 'prisma', 'schema');
  if (existsSync(folder) && statSync(folder).isDirectory()) return folder;
  const file = path.join(serviceDir, 'prisma', 'schema.prisma');
  return existsSync(file) ? file : undefined;
}

/** Migrations live beside the schema file or folder, where Prisma itself would look for them. */
export function migrationsDirFor(prismaSchemaPath: string): string {
  return path.join(path.dirname(prismaSchemaPath), 'migrations');
}

/**
 * The service's schema name: `sika.dbSchema` in its package.json when its table name differs from its folder
 * (psp-connector owns `psp`), otherwise the folder name with dashes made underscores.
 */
export function dbSchemaOf(serviceDir: string): string {
  const packageJson = path.join(serviceDir, 'package.json');
  const declared = existsSync(packageJson)
    ? (JSON.parse(readFileSync(packageJson, 'utf8')) as { sika?: { dbSchema?: unknown } }).sika?.dbSchema
    : undefined;
  if (declared !== undefined && typeof declared !== 'string') {
    throw new Error(`${packageJson}: sika.dbSchema must be a string`);
  }
  const schema = declared ?? path.basename(serviceDir).replace(/-/g, '_');
  assertPlainIdentifier(schema, `database schema of ${path.basename(serviceDir)}`);
  return schema;
}

export function describeServiceDatabase(
  serviceDir: string,
  rolePrefix = DEFAULT_ROLE_PREFIX,
): ServiceDatabase | undefined {
  const prismaSchemaPath = locatePrismaSchema(serviceDir);
  if (!prismaSchemaPath) return undefined;
  const schema = dbSchemaOf(serviceDir);
  const runtimeRole = `${rolePrefix}${schema}`;
  const ownerRole = `${runtimeRole}_owner`;
  assertPlainIdentifier(ownerRole, 'role');
  return {
    service: path.basename(serviceDir),
    serviceDir,
    schema,
    ownerRole,
    runtimeRole,
    prismaSchemaPath,
    migrationsDir: migrationsDirFor(prismaSchemaPath),
  };
}

/** Every folder under servicesRoot, sorted, with its database or undefined for services that have none. */
export function listServices(
  servicesRoot: string,
  rolePrefix = DEFAULT_ROLE_PREFIX,
): Array<{ service: string; database: ServiceDatabase | undefined }> {
  if (!existsSync(servicesRoot)) throw new Error(`services folder ${servicesRoot} does not exist`);
  const services = readdirSync(servicesRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((service) => ({
      service,
      database: describeServiceDatabase(path.join(servicesRoot, service), rolePrefix),
    }));
  assertDistinctSchemas(services.flatMap(({ database }) => (database ? [database] : [])));
  return services;
}

function assertDistinctSchemas(databases: ServiceDatabase[]): void {
  const owners = new Map<string, string>();
  for (const { service, schema } of databases) {
    const other = owners.get(schema);
    if (other) throw new Error(`services ${other} and ${service} both claim schema "${schema}"`);
    owners.set(schema, service);
  }
}

export type RoleKind = 'owner' | 'runtime';

/** SIKA_DB_OWNER_PASSWORD_<SCHEMA> for the owner, SIKA_DB_PASSWORD_<SCHEMA> for the runtime role. */
export function passwordVariable(database: ServiceDatabase, kind: RoleKind): string {
  const schema = database.schema.toUpperCase();
  return kind === 'owner' ? `SIKA_DB_OWNER_PASSWORD_${schema}` : `SIKA_DB_PASSWORD_${schema}`;
}

export function roleName(database: ServiceDatabase, kind: RoleKind): string {
  return kind === 'owner' ? database.ownerRole : database.runtimeRole;
}

/**
 * Password of a service role on the server of `serverUrl`: its variable (see passwordVariable), else the
 * role name itself. That convention is for local and CI databases only: on any other server a role whose
 * password is its name is refused, whether the variable is missing or set to the name.
 */
export function rolePassword(
  database: ServiceDatabase,
  kind: RoleKind,
  serverUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const role = roleName(database, kind);
  const password = env[passwordVariable(database, kind)] || role;
  if (password === role && !isLocalServer(serverUrl, env)) {
    throw new Error(
      `set ${passwordVariable(database, kind)}: the password of ${role} may be its own name only on a local ` +
        `server (localhost, 127.0.0.1, ::1 or a Unix socket), not on ${describeServer(serverUrl)}`,
    );
  }
  return password;
}
