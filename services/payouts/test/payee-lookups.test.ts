import { Harness, type Scope } from './support';

// A real ledger process (tsx compiles at start) on 2 shared cores.
jest.setTimeout(60_000);

/**
 * Registering a payout account looks the holder's name up at the scheme's directory. psp-connector is not
 * running here, so each look-up that reaches it fails as unavailable: what counts is whether it was let
 * through to the bank, refused before it, and recorded.
 */
describe('payee look-ups', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await Harness.start('lookups');
  });
  afterAll(async () => {
    await harness?.close();
  });

  const register = (scope: Scope, alias = '+2250700000001') =>
    harness.client.setPayoutAccount({ scope, alias }).then(
      () => 'registered',
      (error: { code?: string }) => error.code ?? 'unknown error',
    );

  const recorded = (scope: Scope) =>
    harness.db.query<{ alias_masked: string; outcome: string | null }>(
      'SELECT alias_masked, outcome FROM payee_lookups WHERE merchant_id = $1 AND livemode = $2',
      [scope.merchantId, scope.livemode],
    );

  it("limits a merchant's live look-ups, concurrent ones included, and records each one let through", async () => {
    const scope = harness.newScope(true);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => register(scope)));
    expect(outcomes.filter((outcome) => outcome === 'rate_limited')).toHaveLength(3);
    expect(outcomes.filter((outcome) => outcome === 'service_unavailable')).toHaveLength(5);

    const rows = await recorded(scope);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row).toEqual({ alias_masked: expect.not.stringContaining('0700000001'), outcome: 'failed' });
    }
    // Another merchant has look-ups of its own.
    expect(await register(harness.newScope(true))).toBe('service_unavailable');
  });

  it('records test look-ups (the simulator) without limiting them', async () => {
    const scope = harness.newScope(false);
    for (let index = 0; index < 7; index += 1) expect(await register(scope)).toBe('service_unavailable');
    expect(await recorded(scope)).toHaveLength(7);
  });
});
