import { isWholeAmount, parseCallbackBody } from './callback-body';

const event = {
  evCode: 'PAIEMENT_RECU',
  evDate: '2026-03-01T09:00:00.000Z',
  txId: 'SIKA0000000000000000000000000000001',
  end2endId: 'E0000000000000000000000000000000001',
  montant: 1500,
};
const body = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('isWholeAmount', () => {
  it.each([
    [1500, true],
    [0, true],
    [1500.5, false],
    [-1, false],
    [2 ** 53, false],
  ])('%d → %s', (montant, whole) => {
    expect(isWholeAmount(montant)).toBe(whole);
  });
});

describe('parseCallbackBody', () => {
  it('reads the events of a WebhookEventsList', () => {
    expect(parseCallbackBody(body({ data: [event], meta: { total: 1 } }))).toEqual({
      ok: true,
      events: [event],
    });
  });

  it('names a body that is not JSON', () => {
    expect(parseCallbackBody(body('{'))).toMatchObject({ ok: false, problem: 'invalid_json' });
  });

  it('names the first field that does not fit the schema', () => {
    expect(parseCallbackBody(body({ data: [{ ...event, txId: 7 }], meta: { total: 1 } }))).toMatchObject({
      ok: false,
      problem: 'invalid_field',
      param: 'data.0.txId',
    });
    expect(parseCallbackBody(body({ data: [] }))).toMatchObject({ param: 'meta' });
  });

  it('names an amount that is not a whole number of XOF', () => {
    const events = [event, { ...event, montant: 1.5 }];
    expect(parseCallbackBody(body({ data: events, meta: { total: 2 } }))).toEqual({
      ok: false,
      problem: 'invalid_field',
      message: 'montant must be a whole number of XOF.',
      param: 'data.1.montant',
    });
  });
});
