import { execFile } from 'node:child_process';
import path from 'node:path';

import { REPOSITORY_ROOT } from './environment';

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

const MAIN = path.join(REPOSITORY_ROOT, 'packages/merchant-cli/dist/main.js');

/**
 * The merchant's CLI as its own process, with a test secret key in SIKA_SECRET_KEY: `pnpm --silent sika …`
 * as the docs show it when `viaPnpm`, else its built entry point directly (the same program, a second less).
 */
export function runSika(
  args: readonly string[],
  secretKey: string | undefined,
  { viaPnpm = false }: { viaPnpm?: boolean } = {},
): Promise<CliRun> {
  const [file, prefix] = viaPnpm ? ['pnpm', ['--silent', 'sika']] : [process.execPath, [MAIN]];
  return new Promise((resolve, reject) => {
    execFile(
      file,
      [...prefix, ...args],
      {
        cwd: REPOSITORY_ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          ...(secretKey === undefined ? {} : { SIKA_SECRET_KEY: secretKey }),
        },
        timeout: 80_000,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ status: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}
