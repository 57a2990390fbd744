import { AppError } from '@sika/platform/pure';
import type { z } from 'zod';

/**
 * Key of a custom issue's `params` naming the public error code to answer (e.g. `parameter_missing` for a
 * field that is required only in some cases), when the default mapping below would not pick it.
 */
export const SIKA_CODE = 'sikaCode';

type ValidationCode = 'parameter_invalid' | 'parameter_missing' | 'parameter_unknown';

export interface ParseOptions {
  /** The param named when the value itself (not one of its fields) is wrong, e.g. `Idempotency-Key`. */
  name?: string;
}

/** `metadata.order_id` is written `metadata[order_id]`, as Stripe names nested params. */
export function paramOf(path: readonly PropertyKey[], name?: string): string | undefined {
  const [first, ...rest] = path.map(String);
  if (first === undefined) return name;
  const head = name === undefined ? first : `${name}[${first}]`;
  return head + rest.map((segment) => `[${segment}]`).join('');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

function customCode(issue: z.core.$ZodIssue): ValidationCode | undefined {
  if (issue.code !== 'custom') return undefined;
  const code: unknown = issue.params?.[SIKA_CODE];
  return code === 'parameter_missing' || code === 'parameter_invalid' ? code : undefined;
}

/**
 * The one public error for a failed parse: the first unknown parameter if any (a misspelt field is more
 * useful to report than the required field it failed to provide), else the first other issue.
 */
export function toValidationError(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  options: ParseOptions = {},
): AppError {
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown !== undefined && unknown.code === 'unrecognized_keys') {
    const param = paramOf([...unknown.path, unknown.keys[0] ?? ''], options.name);
    return new AppError(
      'parameter_unknown',
      `Received unknown parameter: ${param}.`,
      param === undefined ? {} : { param },
    );
  }
  const [issue] = issues;
  if (issue === undefined) return new AppError('parameter_invalid', 'The request is invalid.');
  const param = paramOf(issue.path, options.name);
  if (param === undefined) {
    return new AppError('parameter_invalid', 'The request body must be a JSON object.');
  }
  const decided = customCode(issue);
  if (decided !== undefined) return new AppError(decided, issue.message, { param });
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
    return new AppError('parameter_missing', `Missing required param: ${param}.`, { param });
  }
  // A record key's own problem is nested: say it is about the key, not the value.
  const message =
    issue.code === 'invalid_key' ? `the key ${issue.issues[0]?.message ?? 'is invalid'}` : issue.message;
  return new AppError('parameter_invalid', `Invalid ${param}: ${message.replace(/\.$/, '')}.`, { param });
}

/** Parses `input` with `schema`, or throws the AppError a merchant should read (400, code and param). */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  options: ParseOptions = {},
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw toValidationError(result.error.issues, input, options);
}
