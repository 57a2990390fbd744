import { ERROR_CATALOG, type ErrorCode } from '@sika/platform';
import { z } from 'zod';

const codes = Object.keys(ERROR_CATALOG) as [ErrorCode, ...ErrorCode[]];
const types = [...new Set(Object.values(ERROR_CATALOG).map((entry) => entry.type))] as [string, ...string[]];

/** The envelope every error answers with (platform's toHttpError), described for the OpenAPI document. */
export const ErrorSchema = z
  .object({
    error: z.object({
      type: z.enum(types).describe('The family of the error.'),
      code: z.enum(codes).describe('Stable, machine-readable; never renamed.'),
      message: z.string().describe('Human-readable, safe to show to a developer.'),
      param: z
        .string()
        .optional()
        .describe('The parameter at fault, e.g. `amount`, `metadata[order]`, `Idempotency-Key`.'),
      request_id: z.string().describe('Also in the `Request-Id` header; quote it to support.'),
    }),
  })
  .meta({
    id: 'Error',
    description:
      'The body of every error (decided: the spec does not show it). The HTTP status of each code: ' +
      Object.entries(ERROR_CATALOG)
        .map(([code, entry]) => `${code} ${entry.httpStatus}`)
        .join(', ') +
      '.',
  });
