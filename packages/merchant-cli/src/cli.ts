import { parseArgs } from 'node:util';

import { Sika, SikaError, SikaResponseError } from '@sika/node';

import { listen, listenSecret } from './commands/listen';
import { describeHelperResult, expire, pay } from './commands/test-helpers';
import { describeTriggered, trigger, TriggerMissed } from './commands/trigger';
import { readConfig, UsageError } from './config';
import { eventsFeed } from './events-feed';
import { USAGE } from './usage';

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface Io {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Aborted on ^C: `listen` stops. */
  signal: AbortSignal;
}

const OPTIONS = {
  'api-key': { type: 'string' },
  'api-base': { type: 'string' },
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  'print-secret': { type: 'boolean' },
  amount: { type: 'string' },
  'on-delivery': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The commands `sika` knows (help aside). */
export const COMMANDS = ['trigger', 'listen', 'pay', 'expire'] as const;

/**
 * The options and positionals of a command line, refused with a UsageError when an option or the command is
 * unknown (the docs' test checks every `sika` command they show with it).
 */
export function parse(argv: readonly string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const [command] = parsed.positionals;
  if (command !== undefined && command !== 'help' && !(COMMANDS as readonly string[]).includes(command)) {
    throw new UsageError(`Unknown command '${command}'.`);
  }
  return parsed;
}

function single(positionals: string[], what: string): string {
  const [value, ...rest] = positionals;
  if (value === undefined || rest.length > 0) throw new UsageError(`Give exactly one ${what}.`);
  return value;
}

function amountOf(value: string | undefined): number {
  if (value === undefined) return 1_000;
  if (!/^[1-9]\d{0,14}$/.test(value)) throw new UsageError('--amount must be whole francs, at least 1.');
  return Number(value);
}

function forwardUrlOf(value: string | undefined): string {
  if (value === undefined) throw new UsageError('listen needs --forward-to URL (or --print-secret).');
  if (!/^https?:\/\/[^/\s]+/.test(value)) {
    throw new UsageError('--forward-to must be an http(s) URL, e.g. http://localhost:3000/webhooks.');
  }
  return value;
}

function paymentIdOf(value: string): string {
  if (!/^pay_[A-Za-z0-9]+$/.test(value)) throw new UsageError(`'${value}' is not a payment id (pay_…).`);
  return value;
}

async function run(argv: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv);
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    io.stdout(USAGE);
    return command === undefined && !values.help ? EXIT.usage : EXIT.ok;
  }
  const config = readConfig(values, io.env);
  const sika = new Sika(config.secretKey, { baseUrl: config.apiBase });
  const print = (json: object, text: string) => io.stdout(values.json ? `${JSON.stringify(json)}\n` : text);
  switch (command) {
    case 'trigger': {
      const result = await trigger(sika, single(rest, 'event type or test alias'), {
        amount: amountOf(values.amount),
        onDelivery: values['on-delivery'] ?? false,
      });
      print(result, describeTriggered(result));
      return EXIT.ok;
    }
    case 'listen': {
      if (rest.length > 0) throw new UsageError('listen takes no positional argument.');
      const secret = listenSecret(config.secretKey);
      if (values['print-secret']) {
        io.stdout(`${secret}\n`);
        return EXIT.ok;
      }
      const forwardTo = forwardUrlOf(values['forward-to']);
      const types =
        values.events === undefined ? undefined : new Set(values.events.split(',').map((t) => t.trim()));
      await listen(
        eventsFeed(sika),
        { forwardTo, types, secret },
        (line) => io.stdout(`${line}\n`),
        io.signal,
      );
      return EXIT.ok;
    }
    case 'pay':
    case 'expire': {
      const id = paymentIdOf(single(rest, 'payment id'));
      const result = command === 'pay' ? await pay(sika, id) : await expire(sika, id);
      print(result, describeHelperResult(command, result));
      return EXIT.ok;
    }
    default:
      throw new UsageError(`Unknown command '${command}'.`);
  }
}

/** Runs `sika <argv>`; returns the exit status: 0 done, 1 refused or failed, 2 bad arguments. */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`sika: ${error.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (error instanceof SikaResponseError) {
      const param = error.param === undefined ? '' : ` (param: ${error.param})`;
      io.stderr(`sika: ${error.code}: ${error.message}${param} [request ${error.requestId}]\n`);
      return EXIT.failed;
    }
    if (error instanceof SikaError || error instanceof TriggerMissed || error instanceof Error) {
      io.stderr(`sika: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
}
