import { execFile } from 'node:child_process';
import path from 'node:path';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');
const CLI_MAIN = path.join(WORKSPACE_ROOT, 'packages/ops-cli/src/main.ts');

export interface SikaRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI from its sources as its own process, the way `pnpm --silent sika-ops …` runs the built one:
 * arguments, environment, exit status, stdout and stderr are all real.
 */
export function runSika(args: readonly string[], env: Record<string, string>): Promise<SikaRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI_MAIN, ...args],
      {
        cwd: WORKSPACE_ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          TSX_TSCONFIG_PATH: path.join(WORKSPACE_ROOT, 'tsconfig.test.json'),
          ...env,
        },
        timeout: 30_000,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ status: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}
