/**
 * Runs the calls at once, as concurrent clients would, then calls again, one at a time, each call that was
 * answered service_unavailable, until it is answered otherwise: a saturated service (a full connection pool on
 * a loaded CI machine) tells its caller to retry, and a client does. A concurrency test then judges only
 * definite answers. Each call must be idempotent (the same payout id or idempotency key on every attempt).
 */
export async function settleRetryingOverload<T>(
  calls: ReadonlyArray<() => Promise<T>>,
  { maxRetries = 20 }: { maxRetries?: number } = {},
): Promise<Array<PromiseSettledResult<T>>> {
  const results = await Promise.allSettled(calls.map((call) => call()));
  for (const [index, call] of calls.entries()) {
    for (let retry = 0; retry < maxRetries && isOverload(results[index]); retry += 1) {
      [results[index]] = await Promise.allSettled([call()]);
    }
  }
  return results;
}

function isOverload(result: PromiseSettledResult<unknown> | undefined): boolean {
  return (
    result?.status === 'rejected' &&
    (result.reason as { code?: unknown } | null)?.code === 'service_unavailable'
  );
}
