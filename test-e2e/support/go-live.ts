import { merchantsV1 } from '@sika/contracts';
import { createGrpcClient } from '@sika/platform';

import { sikaOps } from './cli';
import { stackGrpcTls } from './grpc-identity';

const MERCHANTS_GRPC_ADDRESS = '127.0.0.1:8051';

/**
 * The simulator's payee that receives transfers: locally the simulator also plays the live participant,
 * so it verifies as a live payout account too (no real money moves).
 */
const LIVE_PAYOUT_ALIAS = '+225 0000000100';
const LIVE_PAYOUT_HOLDER = 'Marchand Test Sika';

/** RequestActivation as the dashboard calls it: it is not an operator command. */
async function requestActivation(merchantId: string): Promise<void> {
  const merchants = createGrpcClient(merchantsV1.MerchantsServiceClient, MERCHANTS_GRPC_ADDRESS, {
    deadlineMs: 10_000,
    tls: stackGrpcTls('dashboard-web'),
  });
  try {
    await merchants.requestActivation({
      merchantId,
      legalName: 'Sika E2E SARL',
      registrationNumber: 'CI-ABJ-03-2024-B12-01234',
      contactName: 'Awa Traoré',
      contactEmail: 'awa@e2e.example',
      contactPhone: '+225 07 00 00 01 00',
    });
  } finally {
    merchants.close();
  }
}

/**
 * Go-live as the spec describes it: the merchant requests activation, an operator approves
 * (`merchant:approve`), the merchant registers and confirms its live payout account (a name look-up at the
 * bank, allowed only after the approval), then the live key is issued. Returns that key.
 */
export async function goLive(merchantId: string): Promise<string> {
  await requestActivation(merchantId);
  await sikaOps('merchant:approve', '--merchant', merchantId);
  const liveScope = ['--merchant', merchantId, '--mode', 'live'];
  await sikaOps('payout-account:set', ...liveScope, '--alias', LIVE_PAYOUT_ALIAS);
  await sikaOps('payout-account:confirm', ...liveScope, '--holder-name', LIVE_PAYOUT_HOLDER);
  return (await sikaOps<{ secret_key: string }>('merchant:renew-key', ...liveScope)).secret_key;
}
