import { AppError } from '@sika/platform';
import type { Request } from 'express';
import type { z } from 'zod';

/**
 * The `{id}` of a record's path. A malformed id is answered exactly like an unknown one (404
 * resource_missing), and the service behind is not asked.
 */
export function pathIdOf(request: Request, schema: z.ZodType<string>, noun: string): string {
  const id = String(request.params['id']);
  if (!schema.safeParse(id).success) {
    throw new AppError('resource_missing', `No such ${noun}: '${id}'.`, { param: 'id' });
  }
  return id;
}
