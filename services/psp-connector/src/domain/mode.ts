/** Test mode talks to the simulator, live mode to the participant bank: one scheme configuration each. */
export type Mode = 'test' | 'live';

export const MODES: readonly Mode[] = ['test', 'live'];

export const modeOf = (livemode: boolean): Mode => (livemode ? 'live' : 'test');

export function isMode(value: string): value is Mode {
  return (MODES as readonly string[]).includes(value);
}
