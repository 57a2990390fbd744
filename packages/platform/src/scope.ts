/**
 * Whose records and which mode: a merchant's test and live records are apart, and merchants never see each
 * other's. Every service that owns merchant records scopes its reads and writes by it.
 */
export interface Scope {
  merchantId: string;
  livemode: boolean;
}
