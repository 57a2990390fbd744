/**
 * Client credentials from `Authorization: Basic`, decoded as RFC 6749 §2.3.1 says: base64 of
 * `urlencode(client_id):urlencode(client_secret)`. Undefined when the header is absent or not Basic.
 */
export function basicCredentials(
  authorization: string | undefined,
): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization?.trim() ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) return undefined;
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, separator).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(separator + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return undefined;
  }
}
