import { EventWindow, LOOKBACK_MS } from './event-window';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds)).toISOString();
const event = (id: string, seconds: number) => ({ id, created_at: at(seconds) });

describe('EventWindow', () => {
  it('asks for everything until an event is seen, then from the latest one less the lookback', () => {
    const window = new EventWindow();
    expect(window.createdFrom()).toBeUndefined();
    window.skip([event('evt_old', 30)]);
    expect(window.createdFrom()).toBe(new Date(Date.parse(at(30)) - LOOKBACK_MS).toISOString());
  });

  it('delivers each event once, oldest first, what existed before it started never', () => {
    const window = new EventWindow();
    window.skip([event('evt_before', 1)]);
    // The API lists the most recent first; an event listed late (older than one already seen) still comes.
    expect(
      window.take([event('evt_b', 3), event('evt_a', 2), event('evt_before', 1)]).map((e) => e.id),
    ).toEqual(['evt_a', 'evt_b']);
    expect(
      window.take([event('evt_c', 4), event('evt_b', 3), event('evt_late', 2)]).map((e) => e.id),
    ).toEqual(['evt_late', 'evt_c']);
    expect(window.take([event('evt_c', 4)])).toEqual([]);
  });
});
