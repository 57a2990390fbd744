import { z } from 'zod';

/** The list envelope of spec §2.7: most recent first; keep paging with `starting_after` while `has_more`. */
export function listSchema<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() })
    .meta({ id, description: 'A page of records, most recent first (spec §2.7).' });
}

export function renderList<T>(data: T[], hasMore: boolean): { object: 'list'; data: T[]; has_more: boolean } {
  return { object: 'list', data, has_more: hasMore };
}
