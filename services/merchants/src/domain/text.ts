import { characterCount } from '@sika/rules';
import { z } from 'zod';

/**
 * Text a person typed on one line: trimmed, not empty, at most `maxLength` code points (not UTF-16 units:
 * "Café Ébène" counts what a person sees), without control characters.
 */
export function singleLineText(maxLength: number) {
  return (
    z
      .string()
      .trim()
      .refine((text) => text.length > 0, 'must not be empty')
      .refine((text) => characterCount(text) <= maxLength, `must be at most ${maxLength} characters`)
      // eslint-disable-next-line no-control-regex -- the point is to match control characters
      .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'must not contain control characters')
  );
}
