import { z } from 'zod';
import { RETENTION_CONFIG } from '@sika/messaging';
import { envVar, grpcServiceEnv } from '@sika/platform';

/** The environment of the payouts service; required variables have no default (the stack and charts set them). */
export const configSchema = z.object({
  ...grpcServiceEnv('payouts'),
  AMQP_URL: envVar.url(['amqp', 'amqps']),
  LEDGER_GRPC_ADDRESS: envVar.grpcAddress(),
  PSP_CONNECTOR_GRPC_ADDRESS: envVar.grpcAddress(),
  /**
   * Test mode's default payout account, which every merchant has without registering one: the simulator's
   * account that always pays, and the holder name its directory gives.
   */
  PAYOUT_TEST_ALIAS: envVar.string().default('+2250000000100'),
  PAYOUT_TEST_HOLDER_NAME: envVar.string().default('Marchand Test Sika'),
  /** How often the daily run checks whether the day's 06:00 has passed (and finishes a run cut short). */
  DAILY_PAYOUT_POLL_INTERVAL: envVar.durationMs().prefault('1m'),
  /** How often reservations a request left behind (crash, ledger unreachable) are finished. */
  RESERVATION_SWEEP_INTERVAL: envVar.durationMs().prefault('5s'),
  /**
   * Live look-ups of a payee's name (registering a live payout account asks the participant bank): per merchant
   * in LIVE_LOOKUP_MERCHANT_WINDOW, and for all merchants together in LIVE_LOOKUP_GLOBAL_WINDOW.
   */
  LIVE_LOOKUP_MERCHANT_LIMIT: envVar.positiveInt().default(5),
  LIVE_LOOKUP_MERCHANT_WINDOW: envVar.durationMs().prefault('24h'),
  LIVE_LOOKUP_GLOBAL_LIMIT: envVar.positiveInt().default(100),
  LIVE_LOOKUP_GLOBAL_WINDOW: envVar.durationMs().prefault('1h'),
  ...RETENTION_CONFIG,
});

export type Config = z.output<typeof configSchema>;
