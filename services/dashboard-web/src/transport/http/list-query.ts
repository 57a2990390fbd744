import type { Request, Response } from 'express';

import { parseListFilters, type ListFilters } from '../../domain/list-filters';
import type { FieldProblem } from '../../views/layout';
import { fieldProblemOf } from './forms';
import { pageContext } from './request-context';

/** A list page's query: its filters, or the refusal of a wrong one, and its fields to echo in the form. */
export type ListQuery = { query: URLSearchParams } & (
  | { filters: ListFilters; refusal?: undefined }
  | { filters?: undefined; refusal: { problem: FieldProblem; status: number } }
);

/** The list page's filters from `fields` of its query string (see parseListFilters), wrong ones refused. */
export function listQueryOf(
  request: Request,
  response: Response,
  fields: readonly string[],
  choice: Parameters<typeof parseListFilters>[1],
  idPattern: RegExp,
): ListQuery {
  const query = new URLSearchParams();
  for (const name of fields) {
    const value = request.query[name];
    if (typeof value === 'string' && value.length > 0) query.set(name, value);
  }
  try {
    return { query, filters: parseListFilters(request.query as Record<string, unknown>, choice, idPattern) };
  } catch (error) {
    const refusal = fieldProblemOf(error, pageContext(request, response).copy);
    if (refusal === undefined) throw error;
    return { query, refusal };
  }
}
