import type { Copy } from './copy';

/** Sika's merchants are in the UEMOA; Africa/Abidjan (UTC, no daylight saving) is the dashboard's clock. */
export const TIME_ZONE = 'Africa/Abidjan';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** `25 nov. 2026, 10:12` / `25 Nov 2026, 10:12`, in Africa/Abidjan; an absent time is an empty string. */
export function formatTime(value: Date | string | null | undefined, copy: Copy): string {
  if (value === null || value === undefined) return '';
  let formatter = formatters.get(copy.locale);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(copy.locale, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: TIME_ZONE,
    });
    formatters.set(copy.locale, formatter);
  }
  return formatter.format(typeof value === 'string' ? new Date(value) : value);
}

/** The machine-readable form for <time datetime>. */
export const isoOf = (value: Date | string): string =>
  typeof value === 'string' ? value : value.toISOString();
