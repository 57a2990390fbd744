/**
 * HTML built from template literals where every interpolated value is escaped unless it is already
 * SafeHtml (made by this module). Merchant-supplied text (reference, description, URLs) can therefore
 * never become markup, whatever it contains.
 *
 * The tag is called `markup`, not `html`: Prettier reformats templates tagged `html`, and its output
 * (self-closed void elements, moved whitespace) is not what the pages must send byte for byte.
 */
export class SafeHtml {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** Escaped for text and for double- or single-quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export type HtmlValue =
  SafeHtml | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  // null, undefined and false render nothing, so `${condition && markup`…`}` reads naturally.
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function markup(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(text);
}
