import { HtmlValidate } from 'html-validate';

/**
 * html-validate's recommended rules (HTML5 content model, accessibility, deprecated markup), with one rule
 * off: `meta-refresh` wants an instant or 20-hour delay (WCAG 2.2.1), but the waiting screen's no-JavaScript
 * fallback must reload every few seconds; the page says it updates itself and offers a manual link.
 */
const validator = new HtmlValidate({
  extends: ['html-validate:recommended'],
  rules: { 'meta-refresh': 'off' },
});

/** Every problem html-validate finds in a whole document, as readable lines (empty when valid). */
export async function htmlProblems(markup: string): Promise<string[]> {
  const report = await validator.validateString(markup);
  return report.results.flatMap((result) =>
    result.messages.map((message) => `${message.ruleId} (line ${message.line}): ${message.message}`),
  );
}
