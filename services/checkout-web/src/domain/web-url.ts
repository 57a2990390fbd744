/**
 * return_url and cancel_url come from the merchant. The gateway validates them, but the page puts them in
 * links and Location headers, so it only ever uses http(s) URLs: a `javascript:` or `data:` URL is treated
 * as absent rather than trusted.
 */
export function webUrlOrNull(value: string | null): string | null {
  if (value === null) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** `https://shop.example:8443`, for the Content-Security-Policy; null for anything but http(s). */
export function webOriginOf(value: string | null): string | null {
  const url = webUrlOrNull(value);
  return url === null ? null : new URL(url).origin;
}
