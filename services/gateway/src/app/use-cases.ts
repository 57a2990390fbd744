import { authenticateKey } from './authenticate-key';
import { cancelPayment } from './cancel-payment';
import { createPayment } from './create-payment';
import { listBalanceTransactions } from './list-balance-transactions';
import { listPayments } from './list-payments';
import type { LedgerClient, MerchantsClient, PaymentsClient } from './ports';
import { retrieveBalance } from './retrieve-balance';
import { retrievePayment } from './retrieve-payment';

/** Every use case of the gateway, bound to the clients of the services behind it. */
export function createUseCases(clients: {
  merchants: MerchantsClient;
  payments: PaymentsClient;
  ledger: LedgerClient;
}) {
  return {
    authenticateKey: authenticateKey(clients.merchants),
    createPayment: createPayment(clients.payments),
    listPayments: listPayments(clients.payments),
    retrievePayment: retrievePayment(clients.payments),
    cancelPayment: cancelPayment(clients.payments),
    retrieveBalance: retrieveBalance(clients.ledger),
    listBalanceTransactions: listBalanceTransactions(clients.ledger),
  };
}

export type UseCases = ReturnType<typeof createUseCases>;
