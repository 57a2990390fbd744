import type { Clock } from './clock';

export interface RecentAnswersSettings {
  /** How long an answer is reused: the bound on how stale a reused answer can be. */
  ttlMs: number;
  /** Past this many entries, the oldest goes first. */
  maxEntries: number;
  clock: Clock;
}

/**
 * Answers of another service reused for `ttlMs`, and one question asked at a time per key: under load,
 * the same question (is this key valid? what is this merchant's fee schedule?) is asked once per `ttlMs`
 * instead of once per request. The short lifetime is the staleness bound, with nothing to invalidate and
 * nothing to miss when the broker is away. Only answers are kept: a failed question is asked again.
 */
export class RecentAnswers<Value> {
  private readonly answers = new Map<string, { value: Value; expiresAt: number }>();
  private readonly asking = new Map<string, Promise<Value>>();

  constructor(private readonly settings: RecentAnswersSettings) {}

  /** The answer for `key` given in the last `ttlMs`, else `ask()`'s (shared by concurrent callers). */
  get(key: string, ask: () => Promise<Value>): Promise<Value> {
    const now = this.settings.clock.now().getTime();
    const answer = this.answers.get(key);
    if (answer !== undefined && answer.expiresAt > now) return Promise.resolve(answer.value);
    const pending = this.asking.get(key);
    if (pending !== undefined) return pending;
    const asked = ask().then(
      (value) => {
        this.asking.delete(key);
        this.remember(key, value, now);
        return value;
      },
      (error: unknown) => {
        this.asking.delete(key);
        throw error;
      },
    );
    this.asking.set(key, asked);
    return asked;
  }

  private remember(key: string, value: Value, askedAt: number): void {
    this.answers.delete(key);
    // Counted from when the question was asked: a slow answer is not kept longer for being slow.
    this.answers.set(key, { value, expiresAt: askedAt + this.settings.ttlMs });
    if (this.answers.size > this.settings.maxEntries) {
      const oldest = this.answers.keys().next();
      if (oldest.done !== true) this.answers.delete(oldest.value);
    }
  }
}
