/** The simulator refused to play the customer's bank as asked: its HTTP status and RFC 7807 detail. */
export class SimulatorRefusal extends Error {
  override readonly name = 'SimulatorRefusal';

  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`the simulator answered ${status}: ${detail}`);
  }
}

/**
 * Test mode's bank pays the request-to-pay `txId` now, as the customer of alias …04 does at delivery: the
 * simulator's own control endpoint (not part of the API Business), used by the CLI and the dashboard. Sika
 * learns the payment as from any bank, by the scheme's callback. Answers the request's status (IRREVOCABLE).
 */
export async function payAtSimulator(
  baseUrl: string,
  txId: string,
  timeoutMs: number,
): Promise<{ statut: string }> {
  const response = await fetch(
    new URL(`/simulator/demandes-paiements/${encodeURIComponent(txId)}/paiement`, baseUrl),
    {
      method: 'POST',
      signal: AbortSignal.timeout(timeoutMs),
    },
  );
  const body = (await response.json().catch(() => ({}))) as { statut?: unknown; detail?: unknown };
  if (!response.ok || typeof body.statut !== 'string') {
    throw new SimulatorRefusal(
      response.status,
      typeof body.detail === 'string' ? body.detail : response.statusText,
    );
  }
  return { statut: body.statut };
}
