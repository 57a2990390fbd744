import { EMAIL_KINDS, EMAIL_MAX_ATTEMPTS, emailRetryDelayMs, emailText } from './email-templates';

const AT = new Date('2026-11-29T14:05:09.000Z');

describe('the emails to accounts', () => {
  it.each(EMAIL_KINDS)('%s: a subject and a body that say when, and nothing undefined', (kind) => {
    const { subject, body } = emailText(kind, true, AT);
    expect(subject.length).toBeGreaterThan(0);
    expect(body).toContain('2026-11-29 14:05 UTC');
    expect(`${subject}\n${body}`).not.toMatch(/undefined|null|\$\{/);
  });

  it('names the mode of a change', () => {
    expect(emailText('webhook_secret_rolled', true, AT).subject).toBe('Your live webhook secret was rolled');
    expect(emailText('secret_key_renewed', false, AT).subject).toBe('Your test secret key was renewed');
  });

  it('tries a refused email again after 1, 2, 4 and 8 minutes, then gives up', () => {
    const delays = Array.from({ length: EMAIL_MAX_ATTEMPTS - 1 }, (_, index) => emailRetryDelayMs(index + 1));
    expect(delays).toEqual([60_000, 120_000, 240_000, 480_000]);
  });
});
