import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DemandePaiementStatutRaison } from '@sika/pispi';

import { meaningOfReason, REQUEST_REASONS, SETTLEMENT_FAILURE_REASONS } from './reason-codes';

describe('meaningOfReason', () => {
  it('decides every DemandePaiementStatutRaison of the API Business', () => {
    expect(Object.keys(REQUEST_REASONS).sort()).toEqual([...DemandePaiementStatutRaison.options].sort());
  });

  it.each([
    ['BE23', 'alias_unknown'],
    ['BE05', 'declined'],
    ['AC06', 'declined'],
    ['AEXR', 'expired'],
    ['AG10', 'failed'],
    ['AG11', 'failed'],
    ['AB03', 'failed'],
    ['AB04', 'failed'],
    ['AB08', 'failed'],
    ['AB09', 'failed'],
    ['ARJR', 'already_answered'],
    ['ZZ00', 'declined'],
    [undefined, 'declined'],
  ])('%s means %s', (code, meaning) => {
    expect(meaningOfReason(code)).toBe(meaning);
  });

  it('never takes a customer refusal for a technical failure', () => {
    for (const code of ['BE05', 'AM09', 'APAR', 'RR07', 'FR01'])
      expect(meaningOfReason(code)).not.toBe('failed');
  });

  it('is not fooled by names of Object.prototype', () => {
    expect(meaningOfReason('constructor')).toBe('declined');
  });
});

describe('the table of reason codes in docs/testing.md', () => {
  const table = readFileSync(path.resolve(__dirname, '../../../../docs/testing.md'), 'utf8');
  const rows = [...table.matchAll(/^\| `([A-Z0-9]{4})` +\| [^|]+\| ([a-z ]+?) +\|/gm)].map(
    ([, code, meaning]) => [code, meaning?.replace(' ', '_')] as const,
  );

  it('lists every code the connector decides, with the meaning the code gives it', () => {
    const decided = [...Object.keys(REQUEST_REASONS), ...Object.keys(SETTLEMENT_FAILURE_REASONS)];
    expect(rows.map(([code]) => code).sort()).toEqual(decided.sort());
    for (const [code, meaning] of rows) expect([code, meaningOfReason(code)]).toEqual([code, meaning]);
  });
});
