import { z } from 'zod';

/**
 * Characters as the spec and JSON Schema count them (Unicode code points), not UTF-16 units: `.length`
 * would count an emoji twice and refuse a description the OpenAPI document says is valid.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _character of text) count += 1;
  return count;
}

/** A string of at most `max` characters; `maxLength` in the OpenAPI document says the same thing. */
export function boundedText(max: number, { min = 0 }: { min?: number } = {}) {
  return z
    .string()
    .refine((text) => characterCount(text) >= min && characterCount(text) <= max, {
      message:
        min > 0 ? `must be ${min} to ${max} characters long` : `must be at most ${max} characters long`,
    })
    .meta(min > 0 ? { minLength: min, maxLength: max } : { maxLength: max });
}
