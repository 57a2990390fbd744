import { characterCount, isStorableText, STORABLE_TEXT_PATTERN, UNSTORABLE_TEXT_MESSAGE } from '@sika/rules';
import { z } from 'zod';

/**
 * A string of at most `max` characters (code points, as the contract counts them) that Postgres can store;
 * `maxLength` and `pattern` in the OpenAPI document say the same thing.
 */
export function boundedText(max: number, { min = 0 }: { min?: number } = {}) {
  return z
    .string()
    .refine((text) => characterCount(text) >= min && characterCount(text) <= max, {
      message:
        min > 0 ? `must be ${min} to ${max} characters long` : `must be at most ${max} characters long`,
    })
    .refine(isStorableText, { message: UNSTORABLE_TEXT_MESSAGE })
    .meta({
      ...(min > 0 ? { minLength: min, maxLength: max } : { maxLength: max }),
      pattern: STORABLE_TEXT_PATTERN.source,
    });
}
