/**
 * A webhook secret as the dispatcher sealed it before key ids (format v1, no key named), under a key of 32
 * bytes 0x07, bound to `endpointId`: a frozen fixture, made once by that version of the code, that every later
 * version must still open.
 */
export const LEGACY_SECRET = {
  key: Buffer.alloc(32, 7),
  endpointId: 'whe_legacy000000000000000001',
  secret: 'whsec_LegacyLegacyLegacyLegacyLegacy01',
  sealed: 'v1.BumcWy/rxUUBJuHr.IuIMOUOGfB/AlKxU+huing==.92jnFyKtY6InGS7q38bRZt6ouSTAybNeRdawr57p/uKC05tnwG4=',
} as const;
