import { AppError } from '@sika/platform/pure';
import { characterCount } from '@sika/rules';

/** NIST SP 800-63B: length over composition rules; long enough for a passphrase, bounded for the hasher. */
export const PASSWORD_LENGTH = { min: 10, max: 200 } as const;

/** One address is one account, whatever case it was typed in. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (normalized.length > 254 || !EMAIL_SHAPE.test(normalized)) {
    throw new AppError('parameter_invalid', 'Enter a valid email address.', { param: 'email' });
  }
  return normalized;
}

export function checkNewPassword(password: string): string {
  const length = characterCount(password);
  if (length < PASSWORD_LENGTH.min || length > PASSWORD_LENGTH.max) {
    throw new AppError(
      'parameter_invalid',
      `The password must have ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters.`,
      { param: 'password' },
    );
  }
  return password;
}

export function checkBusinessName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) {
    throw new AppError('parameter_invalid', 'The business name must have 1 to 100 characters.', {
      param: 'business_name',
    });
  }
  return trimmed;
}
