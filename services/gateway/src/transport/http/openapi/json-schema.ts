import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

/** `#/$defs/Payment` (zod's output) → `#/components/schemas/Payment` (where OpenAPI keeps shared schemas). */
function relocateRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relocateRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, item]: [string, unknown]) => {
      if (key === '$schema') return [];
      if (key === '$ref' && typeof item === 'string')
        return [[key, item.replace('#/$defs/', COMPONENT_PREFIX)]];
      return [[key, relocateRefs(item)]];
    }),
  );
}

/**
 * The JSON Schema (2020-12, OpenAPI 3.1's dialect) of what a request may carry. zod writes a schema that has
 * an id as a `$ref` to its own `$defs` entry; relocated, that would be a component referring to itself, so
 * the entry itself is returned.
 */
export function inputSchema(schema: z.ZodType): JsonSchema {
  const generated = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as JsonSchema & {
    $ref?: string;
    $defs?: Record<string, JsonSchema>;
  };
  const { $ref, $defs, $schema: _dialect, ...rest } = generated;
  const own = $ref?.startsWith('#/$defs/') ? $defs?.[$ref.slice('#/$defs/'.length)] : undefined;
  if (own !== undefined && Object.keys($defs ?? {}).length === 1 && Object.keys(rest).length === 0) {
    return relocateRefs(own) as JsonSchema;
  }
  return relocateRefs(generated) as JsonSchema;
}

/**
 * The named output schemas (each carries `.meta({ id })`), with everything they share, as OpenAPI components:
 * one generation over all of them, so a schema used twice (Payment in PaymentList) is one component.
 */
export function outputComponents(schemas: readonly z.ZodType[]): Record<string, JsonSchema> {
  const holder = z.object(Object.fromEntries(schemas.map((schema, index) => [`s${index}`, schema])));
  const generated = z.toJSONSchema(holder, { io: 'output', target: 'draft-2020-12' }) as { $defs?: object };
  return relocateRefs(generated.$defs ?? {}) as Record<string, JsonSchema>;
}

export function componentRef(id: string): JsonSchema {
  return { $ref: `${COMPONENT_PREFIX}${id}` };
}
