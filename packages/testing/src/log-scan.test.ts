import { payeeBehaviourOf } from '../../../services/pispi-simulator/src/domain/payee-table';
import { payerBehaviourOf } from '../../../services/pispi-simulator/src/domain/alias-table';
import { scanLogForLeaks, SIMULATOR_HOLDER_NAMES } from './log-scan';

describe('scanLogForLeaks', () => {
  it.each([
    ['alias', 'payments | {"msg":"sending","alias":"+225 0000000001"}'],
    ['alias', 'psp-connector | {"payeurAlias":"+2250000000007"}'],
    ['alias', 'payouts | account +225 00.00.00.01.00 registered'],
    ['alias', 'pispi-simulator | {"alias":"0000000004"}'],
    ['alias', 'any | +225 0712345678'],
    ['api_key', 'gateway | {"authorization":"Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc"}'],
    ['api_key', 'cli | key sk_live_abc123'],
    ['webhook_secret', 'webhook-dispatcher | {"secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2La"}'],
    ['name', 'psp-connector | {"payeNom":"Marchand Test Sika"}'],
    ['name', 'payments | paid by Client Test Paie'],
  ])('finds a leaked %s', (kind, line) => {
    expect(scanLogForLeaks(`first line\n${line}\nlast line`)).toEqual([
      { kind, line: 2, excerpt: expect.stringContaining(`<${kind}>`) as unknown },
    ]);
  });

  it('finds nothing in masked aliases, redacted secrets, ids and amounts', () => {
    const clean = [
      'payments | {"payer_alias_masked":"+225 00******01","tx_id":"SIKA0000000001AbCdEfGhIjKlMnOpQrStUvW"}',
      'gateway | {"authorization":"[REDACTED]","msg":"key sk_live_[REDACTED] refused"}',
      'webhook-dispatcher | {"msg":"secret whsec_[REDACTED] rolled","amount":100000000000}',
      'ledger | {"payment_id":"pay_00000000015xYz","time":"2026-01-01T00:00:00.000Z"}',
    ].join('\n');

    expect(scanLogForLeaks(clean)).toEqual([]);
  });

  it('shows each line with its findings masked, and one finding per kind', () => {
    const [alias, name] = scanLogForLeaks('x | +225 0000000001 and Client Test Paie, +225 0000000002');

    expect(alias).toEqual({ kind: 'alias', line: 1, excerpt: 'x | <alias> and <name>, <alias>' });
    expect(name).toMatchObject({ kind: 'name', line: 1 });
  });

  it('looks for the names it is given', () => {
    expect(scanLogForLeaks('owner Awa Kone', ['Awa Kone'])).toHaveLength(1);
    expect(scanLogForLeaks('owner Awa Kone')).toEqual([]);
  });

  it("knows every holder name of the simulator's test aliases", () => {
    const payers = ['01', '02', '03', '04', '06', '07', '08'].map((end) => {
      const behaviour = payerBehaviourOf(`+22500000000${end}`);
      return 'payer' in behaviour ? behaviour.payer.name : undefined;
    });
    const payees = ['100', '106', '108', '123'].map((end) => {
      const behaviour = payeeBehaviourOf(`+2250000000${end}`);
      return 'name' in behaviour ? behaviour.name : undefined;
    });

    expect([...payers, ...payees].filter((name) => !SIMULATOR_HOLDER_NAMES.includes(name ?? ''))).toEqual([]);
  });
});
