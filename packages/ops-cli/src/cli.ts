import { ArgumentError, parseCommand } from './arguments';
import type { Command } from './arguments';
import { createMerchant, describeMerchantCreated, PartiallyCreatedError } from './commands/merchant-create';
import { describeKeyRenewed, renewKey } from './commands/merchant-renew-key';
import { approveActivation, ApprovalRefused, describeActivationApproved } from './commands/merchant-approve';
import { describeEmails, listEmails } from './commands/merchant-emails';
import { describeMerchant, showMerchant } from './commands/merchant-show';
import { audit, describeAudit } from './commands/audit';
import { describePaymentSimulated, SimulationRefused, simulatePayment } from './commands/payment-simulate';
import {
  confirmPayoutAccount,
  describePayoutAccount,
  describePayoutSchedule,
  setPayoutAccount,
  setPayoutSchedule,
  showPayoutAccount,
} from './commands/payout-account';
import { describeWebhookSet, setWebhook } from './commands/webhook-set';
import { adjustBalance, describeAdjustment } from './commands/ledger-adjust';
import { readAddresses, readGrpcTls } from './environment';
import { connectServices, ServiceCallError } from './services';
import type { Services } from './services';
import { USAGE } from './usage';

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface Io {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

type RunnableCommand = Exclude<Command, { command: 'help' }>;

/** Runs the command; returns what to print: the JSON object, or the human-readable text. */
async function execute(
  command: RunnableCommand,
  services: Services,
): Promise<{ json: object; text: string; failed?: boolean }> {
  switch (command.command) {
    case 'audit': {
      const report = await audit(services, command);
      return { json: report, text: describeAudit(report), failed: report.violations.length > 0 };
    }
    case 'merchant:create': {
      const result = await createMerchant(services, command);
      return { json: result, text: describeMerchantCreated(result) };
    }
    case 'merchant:renew-key': {
      const result = await renewKey(services, command);
      return { json: result, text: describeKeyRenewed(result) };
    }
    case 'merchant:show': {
      const result = await showMerchant(services, command);
      return { json: result, text: describeMerchant(result) };
    }
    case 'merchant:emails': {
      const result = await listEmails(services, command);
      return { json: result, text: describeEmails(result) };
    }
    case 'merchant:approve': {
      const result = await approveActivation(services, command);
      return { json: result, text: describeActivationApproved(result) };
    }
    case 'webhook:set': {
      const result = await setWebhook(services, command);
      return { json: result, text: describeWebhookSet(result) };
    }
    case 'payment:simulate': {
      const result = await simulatePayment(services, command);
      return { json: result, text: describePaymentSimulated(result) };
    }
    case 'payout-account:set': {
      const result = await setPayoutAccount(services, command);
      return { json: result, text: describePayoutAccount(result) };
    }
    case 'payout-account:confirm': {
      const result = await confirmPayoutAccount(services, command);
      return { json: result, text: describePayoutAccount(result) };
    }
    case 'payout-account:show': {
      const result = await showPayoutAccount(services, command);
      return { json: result, text: describePayoutAccount(result) };
    }
    case 'payout-schedule:set': {
      const result = await setPayoutSchedule(services, command);
      return { json: result, text: describePayoutSchedule(result) };
    }
    case 'ledger:adjust': {
      const result = await adjustBalance(services, command);
      return { json: result, text: describeAdjustment(result) };
    }
  }
}

/**
 * The whole tool: stdout carries only the result (one JSON object with --json), everything else goes to
 * stderr. Returns the exit status: 0 done, 1 a service refused or failed, 2 bad arguments or environment.
 */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  let command: Command;
  let services: Services;
  try {
    command = parseCommand(argv, io.env);
    if (command.command === 'help') {
      io.stdout(USAGE);
      return EXIT.ok;
    }
    services = connectServices(readAddresses(io.env), readGrpcTls(io.env));
  } catch (error) {
    if (!(error instanceof ArgumentError)) throw error;
    io.stderr(`sika-ops: ${error.message}\n\n${USAGE}`);
    return EXIT.usage;
  }

  try {
    const { json, text, failed } = await execute(command, services);
    io.stdout(command.json ? `${JSON.stringify(json)}\n` : `${text}\n`);
    return failed ? EXIT.failed : EXIT.ok;
  } catch (error) {
    const refused =
      error instanceof ServiceCallError ||
      error instanceof PartiallyCreatedError ||
      error instanceof SimulationRefused ||
      error instanceof ApprovalRefused;
    if (!refused) throw error;
    io.stderr(`sika-ops: ${error.message}\n`);
    return EXIT.failed;
  } finally {
    services.close();
  }
}
