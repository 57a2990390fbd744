/** Kept in the attempt log: enough to tell a refused connection from a DNS failure, never a stack. */
const MAX_ERROR_LENGTH = 200;

/**
 * `<code>: <message>` of a Node network error (`ECONNREFUSED: connect ECONNREFUSED 1.2.3.4:443`), read by
 * shape rather than instanceof: errors may come from another realm (e.g. under a test runner).
 */
export function describeNetworkError(error: unknown): string {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return (typeof code === 'string' ? `${code}: ${text}` : text).slice(0, MAX_ERROR_LENGTH);
}
