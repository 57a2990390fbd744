/**
 * Finds in log text what must never be logged: customer aliases, Sika's API keys and webhook secrets, and
 * the names of people. Used on the end-to-end stack's logs (test-e2e/support/global-teardown.ts): a finding
 * fails the run. Each finding says where it is and shows the line with the finding masked, so that the
 * report does not leak it again.
 */
export type LeakKind = 'alias' | 'api_key' | 'webhook_secret' | 'name';

export interface LeakFinding {
  kind: LeakKind;
  /** 1-based line number in the scanned text. */
  line: number;
  /** The line, each finding replaced by `<kind>`, cut to EXCERPT_LENGTH characters. */
  excerpt: string;
}

/**
 * The holders the PI-SPI simulator gives its test aliases (services/pispi-simulator/src/domain/alias-table.ts
 * and payee-table.ts): what a payer's or payee's name looks like in a test run. Written out so that a change
 * of the simulator shows in this package's test.
 */
export const SIMULATOR_HOLDER_NAMES: readonly string[] = [
  'Client Test Paie',
  'Client Test Refuse',
  'Client Test Ignore',
  'Client Test Differe',
  'Client Test Panne',
  'Client Test Retour',
  'Client Test Montant',
  'Marchand Test Sika',
  'Compte Test Supprime',
  'Compte Test Bloque',
  'Compte Test Hors Ligne',
];

const EXCERPT_LENGTH = 240;

const PATTERNS: readonly { kind: Exclude<LeakKind, 'name'>; pattern: RegExp }[] = [
  // +225 and 10 digits, separators (space, no-break space, dot, hyphen) allowed between them.
  { kind: 'alias', pattern: /\+225[ \u00A0.-]?\d(?:[ \u00A0.-]?\d){9}(?!\d)/g },
  // The test aliases without their country code (00000000NN), not inside a longer word or number.
  { kind: 'alias', pattern: /(?<![A-Za-z0-9*])00000000\d\d(?![A-Za-z0-9])/g },
  // A redacted key keeps its prefix (`sk_live_[REDACTED]`): only a prefix followed by the key counts.
  { kind: 'api_key', pattern: /(?<![A-Za-z0-9])[sr]k_(?:test|live)_[A-Za-z0-9]+/g },
  { kind: 'webhook_secret', pattern: /(?<![A-Za-z0-9])whsec_[A-Za-z0-9+/=_-]+/g },
];

function escapeForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every leak in `text`, line by line; `names` are looked for as written (the simulator's by default). */
export function scanLogForLeaks(
  text: string,
  names: readonly string[] = SIMULATOR_HOLDER_NAMES,
): LeakFinding[] {
  const patterns = [
    ...PATTERNS,
    ...names.map((name) => ({ kind: 'name' as const, pattern: new RegExp(escapeForRegExp(name), 'g') })),
  ];
  const findings: LeakFinding[] = [];
  text.split('\n').forEach((content, index) => {
    const kinds = patterns.filter(({ pattern }) => content.search(pattern) >= 0);
    if (kinds.length === 0) return;
    let excerpt = content;
    for (const { kind, pattern } of kinds) excerpt = excerpt.replace(pattern, `<${kind}>`);
    const line = index + 1;
    const cut = excerpt.length > EXCERPT_LENGTH ? `${excerpt.slice(0, EXCERPT_LENGTH)}…` : excerpt;
    for (const kind of new Set(kinds.map((each) => each.kind))) findings.push({ kind, line, excerpt: cut });
  });
  return findings;
}
