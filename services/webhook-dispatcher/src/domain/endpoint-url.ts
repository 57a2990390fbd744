import { AppError } from '@sika/platform/pure';

export const MAX_URL_LENGTH = 2_048;

/**
 * A webhook URL is, first, an absolute http(s) URL without credentials. Where it may point (scheme per mode,
 * port, addresses) is the target rules' question (webhook-target.ts).
 */
export function validateEndpointUrl(url: string): string {
  const invalid = (reason: string) => new AppError('parameter_invalid', `url ${reason}.`, { param: 'url' });
  if (url.length > MAX_URL_LENGTH) throw invalid(`must be at most ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('must be an absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw invalid('must start with https:// or http://');
  if (parsed.username !== '' || parsed.password !== '') throw invalid('must not contain credentials');
  return url;
}
