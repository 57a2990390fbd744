/** The two environments of the spec, as the dashboard's URLs name them (`/test/…`, `/live/…`). */
export const MODES = ['test', 'live'] as const;
export type Mode = (typeof MODES)[number];

export const isMode = (value: unknown): value is Mode =>
  typeof value === 'string' && (MODES as readonly string[]).includes(value);

export const livemodeOf = (mode: Mode): boolean => mode === 'live';

export const otherMode = (mode: Mode): Mode => (mode === 'test' ? 'live' : 'test');
