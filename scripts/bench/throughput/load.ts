import autocannon from 'autocannon';
import { StatusTally } from './stats';

/** What one closed-loop autocannon run measured. */
export interface LoadFigures {
  requestsPerSecond: number;
  /** Of those, the 2xx per second. */
  succeededPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  statuses: StatusTally;
}

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  /** Called for each request: headers (the Authorization of the key whose turn it is) and body. */
  prepare?: () => { headers: Record<string, string>; body?: string };
}

/**
 * `connections` connections, each sending its next request as soon as the previous one is answered, for
 * `durationS` seconds. Throttling responses are checked for Retry-After as they arrive.
 */
export async function runLoad(
  origin: string,
  request: LoadRequest,
  { connections, durationS }: { connections: number; durationS: number },
): Promise<LoadFigures> {
  const statuses = new StatusTally();
  let throttledWithoutRetryAfter = 0;
  const { prepare } = request;
  const result = await autocannon({
    url: origin,
    connections,
    duration: durationS,
    requests: [
      {
        method: request.method,
        path: request.path,
        ...(prepare && {
          setupRequest: (template) => {
            const { headers, body } = prepare();
            return { ...template, headers: { ...template.headers, ...headers }, body };
          },
        }),
        onResponse: (status, _body, _context, headers) => {
          if (status !== 429 && status !== 503) return;
          const retryAfter = Object.entries(headers ?? {}).find(
            ([name]) => name.toLowerCase() === 'retry-after',
          );
          if (!retryAfter?.[1]) throttledWithoutRetryAfter += 1;
        },
      },
    ],
  });
  const counts: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) counts[status] = count ?? 0;
  if (result.errors > 0) counts.error = result.errors;
  statuses.add(counts, throttledWithoutRetryAfter);
  const answered = statuses.total - (counts.error ?? 0);
  return {
    requestsPerSecond: answered / result.duration,
    succeededPerSecond: statuses.succeeded / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    statuses,
  };
}
