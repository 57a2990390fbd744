#!/usr/bin/env node
import { runCli } from './cli';

/** `sika-ops <command> …` (root script: `pnpm --silent sika-ops <command> …`). See usage.ts. */
runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    // A bug, not a refusal: the stack is what a maintainer needs.
    process.stderr.write(
      `sika-ops: unexpected failure: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
