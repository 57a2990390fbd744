import { EventSchema, renderEvent } from '@sika/public-api';
import { TEST_EVENT_MESSAGE } from '@sika/public-api';
import { buildTestEvent, isEventObjectId } from './event';

describe('buildTestEvent', () => {
  const createdAt = new Date('2026-03-01T09:00:00.000Z');
  const event = buildTestEvent({
    id: 'evt_0123456789abcdefghijklmn',
    scope: { merchantId: 'mer_0123456789abcdefghijklmn', livemode: true },
    createdAt,
  });
  const body = JSON.parse(event.payload) as Record<string, unknown>;

  it('is a webhook.test event whose data.object says what it is', () => {
    expect(body).toEqual({
      id: 'evt_0123456789abcdefghijklmn',
      object: 'event',
      type: 'webhook.test',
      created_at: '2026-03-01T09:00:00.000Z',
      livemode: true,
      data: { object: { object: 'webhook_test', message: TEST_EVENT_MESSAGE } },
    });
    expect(event).toMatchObject({ type: 'webhook.test', sourceMessageId: null, objectId: null, createdAt });
  });

  it('keeps the envelope of every other event, fields in the same order', () => {
    const payment = renderEvent({
      id: event.id,
      type: 'payment.succeeded',
      createdAt,
      livemode: true,
      object: {} as Parameters<typeof renderEvent>[0]['object'],
    });
    expect(Object.keys(body)).toEqual(Object.keys(payment));
    const { type: _type, data: _data, ...envelope } = body;
    expect(EventSchema.omit({ type: true, data: true }).strict().parse(envelope)).toEqual(envelope);
  });
});

describe('isEventObjectId', () => {
  it.each(['pay_0123456789abcdefghijklmn', 'po_0123456789abcdefghijklmn'])('accepts %s', (id) => {
    expect(isEventObjectId(id)).toBe(true);
  });

  it.each([
    ['an event id', 'evt_0123456789abcdefghijklmn'],
    ['a refund id, never an event object', 'rfd_0123456789abcdefghijklmn'],
    ['a short body', 'pay_123'],
    ['a bare prefix', 'pay_'],
    ['an empty string', ''],
  ])('refuses %s', (_case, id) => {
    expect(isEventObjectId(id)).toBe(false);
  });
});
