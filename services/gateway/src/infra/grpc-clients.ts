import { ledgerV1, merchantsV1, paymentsV1 } from '@sika/contracts';
import { createGrpcClient } from '@sika/platform';

import type { LedgerClient, MerchantsClient, PaymentsClient } from '../app/ports';

export interface ServiceAddresses {
  merchants: string;
  payments: string;
  ledger: string;
}

export interface GatewayClients {
  merchants: MerchantsClient;
  payments: PaymentsClient;
  ledger: LedgerClient;
  close(): void;
}

/** The services behind the public API (`host:port` each); channels connect lazily. */
export function createServiceClients(addresses: ServiceAddresses, deadlineMs: number): GatewayClients {
  const merchants = createGrpcClient(merchantsV1.MerchantsServiceClient, addresses.merchants, { deadlineMs });
  const payments = createGrpcClient(paymentsV1.PaymentsServiceClient, addresses.payments, { deadlineMs });
  const ledger = createGrpcClient(ledgerV1.LedgerServiceClient, addresses.ledger, { deadlineMs });
  return {
    merchants,
    payments,
    ledger,
    close: () => {
      merchants.close();
      payments.close();
      ledger.close();
    },
  };
}
