import type { SecretBox } from '@sika/platform';

/** Endpoint secrets kept opened at most: beyond it, the least recently used is opened again when next needed. */
const DEFAULT_CAPACITY = 10_000;

export type SecretRole = 'current' | 'previous';

/**
 * Opens endpoint secrets for the delivery worker, keeping each endpoint's opened secret beside the ciphertext
 * it came from, so the many deliveries to one endpoint decrypt its secret once. Exact without invalidation: a
 * ciphertext is bound to its endpoint id, so the same ciphertext always opens to the same secret, and a roll
 * writes a new ciphertext, which replaces the entry (the rolled-away secret does not linger).
 */
export class OpenedSecrets {
  private readonly opened = new Map<string, { sealed: string; secret: string }>();

  constructor(
    private readonly secrets: SecretBox,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  /** Throws, and keeps nothing, when the box cannot open it. */
  open(endpointId: string, role: SecretRole, sealed: string): string {
    const key = `${role}:${endpointId}`;
    const entry = this.opened.get(key);
    // Deleted either way: a hit moves to the most recent end of the map's order, a stale entry goes.
    this.opened.delete(key);
    const secret = entry?.sealed === sealed ? entry.secret : this.secrets.open(sealed, endpointId);
    this.opened.set(key, { sealed, secret });
    if (this.opened.size > this.capacity) {
      const [oldest] = this.opened.keys();
      if (oldest !== undefined) this.opened.delete(oldest);
    }
    return secret;
  }
}
