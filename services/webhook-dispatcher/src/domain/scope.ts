/** Whose endpoint and which environment: test and live events go to separate endpoints with separate secrets. */
export interface Scope {
  merchantId: string;
  livemode: boolean;
}
