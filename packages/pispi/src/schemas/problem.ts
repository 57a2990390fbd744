import { z } from 'zod';

/** Media type of RFC 7807 error answers. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const InvalidParam = z.object({ name: z.string().optional(), reason: z.string().optional() });
export type InvalidParam = z.infer<typeof InvalidParam>;

/** RFC 7807 problem details, as every error answer of the API Business carries them. */
export const Problem7807 = z.object({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  detail: z.string().optional(),
  'invalid-params': z.array(InvalidParam).optional(),
});
export type Problem7807 = z.infer<typeof Problem7807>;

/**
 * The invalid-params of a failed zod validation: one entry per issue, named by its JSON path in dotted
 * form (`remise.montant`, `events.0`), the root being `body`. An unknown key is named itself.
 */
export function invalidParamsOf(error: z.ZodError): Required<InvalidParam>[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ name: [...path, key].join('.'), reason: 'unknown field' }));
    }
    return [{ name: path.length > 0 ? path.join('.') : 'body', reason: issue.message }];
  });
}
