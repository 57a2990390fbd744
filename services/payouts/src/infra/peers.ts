import { ledgerV1, pspV1 } from '@sika/contracts';
import { createGrpcClient, type GrpcClient, type GrpcTls } from '@sika/platform';
import type { Ledger, PayeeDirectory, Scope } from '../app/ports';

/** Deadlines per peer: psp-connector's lookup waits on the scheme's HTTP API, the ledger on its database. */
export const PEER_DEADLINES_MS = { ledger: 5_000, pspConnector: 20_000 } as const;

export class GrpcLedger implements Ledger {
  constructor(private readonly client: GrpcClient<ledgerV1.LedgerServiceClient>) {}

  static connect(address: string, tls: GrpcTls): GrpcLedger {
    return new GrpcLedger(
      createGrpcClient(ledgerV1.LedgerServiceClient, address, { deadlineMs: PEER_DEADLINES_MS.ledger, tls }),
    );
  }

  async reservePayout(scope: Scope, payoutId: string, amount: bigint | null): Promise<bigint> {
    const { balanceTransaction } = await this.client.reservePayout({
      scope,
      payoutId,
      ...(amount !== null && { amount }),
    });
    if (!balanceTransaction) throw new Error(`the ledger reserved payout ${payoutId} without a movement`);
    return -balanceTransaction.amount;
  }

  async payableBalances(
    livemode: boolean,
    startingAfter: string | undefined,
    limit: number,
  ): Promise<{ merchantIds: string[]; hasMore: boolean }> {
    const page = await this.client.listPayableBalances({
      livemode,
      limit,
      ...(startingAfter !== undefined && { startingAfter }),
    });
    return { merchantIds: page.balances.map((balance) => balance.merchantId), hasMore: page.hasMore };
  }

  close(): void {
    this.client.close();
  }
}

export class GrpcPayeeDirectory implements PayeeDirectory {
  constructor(private readonly client: GrpcClient<pspV1.PspConnectorServiceClient>) {}

  static connect(address: string, tls: GrpcTls): GrpcPayeeDirectory {
    return new GrpcPayeeDirectory(
      createGrpcClient(pspV1.PspConnectorServiceClient, address, {
        deadlineMs: PEER_DEADLINES_MS.pspConnector,
        tls,
      }),
    );
  }

  async lookUp(livemode: boolean, alias: string) {
    const answer = await this.client.lookupPayee({ livemode, alias });
    if (answer.found && answer.holderName) {
      return {
        found: true as const,
        holderName: answer.holderName,
        holderCountry: answer.holderCountry ?? null,
      };
    }
    return { found: false as const, reasonCode: answer.reasonCode ?? null };
  }

  close(): void {
    this.client.close();
  }
}
