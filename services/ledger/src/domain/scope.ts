/** Whose books and which environment: test and live are separate books of the same merchant. */
export interface Scope {
  merchantId: string;
  livemode: boolean;
}
