import { STATUS_CODES } from 'node:http';

import { Problem7807 } from '../schemas/problem';

/**
 * The RFC 7807 body of an error answer; when the body is missing or is not a problem (a proxy's HTML page,
 * say), a minimal problem made from the status (titled with its standard reason phrase), so callers always
 * get one shape.
 */
export function readProblem(status: number, text: string): Problem7807 {
  try {
    const parsed = Problem7807.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: fall through to the status-only problem.
  }
  return { type: 'about:blank', title: STATUS_CODES[status], status };
}
