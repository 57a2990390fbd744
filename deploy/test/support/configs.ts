import { repoPath } from './repo';

/** What the tests use of a zod schema (zod itself is the services' dependency, not the root's). */
interface Parser {
  safeParse(input: unknown): {
    success: boolean;
    error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
  };
}
export interface EnvSchema extends Parser {
  shape: Record<string, Parser>;
}

/**
 * A service's environment as its src/config.ts declares it: the zod object `configSchema`. A variable is
 * required when the schema refuses it absent: no default, no prefault, not optional (exactly what makes
 * the process stop at start).
 */
export interface ServiceConfig {
  schema: EnvSchema;
  variables: string[];
  required: string[];
  /** Parses one variable's value as the service would. */
  accepts(variable: string, value: string): boolean;
}

export async function loadServiceConfig(service: string): Promise<ServiceConfig> {
  const module = (await import(repoPath('services', service, 'src', 'config.ts'))) as {
    configSchema?: unknown;
  };
  const schema = module.configSchema as EnvSchema | undefined;
  if (schema === undefined || typeof schema !== 'object' || !('shape' in schema)) {
    throw new Error(`services/${service}/src/config.ts must export configSchema, a zod object`);
  }
  const shape = schema.shape;
  const variables = Object.keys(shape).sort();
  return {
    schema,
    variables,
    required: variables.filter((name) => !shape[name]!.safeParse(undefined).success),
    accepts: (variable, value) => shape[variable]?.safeParse(value).success ?? false,
  };
}
