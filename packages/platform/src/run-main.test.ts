import { runMain } from './run-main';

/** runMain with stderr and exit captured instead of the process's own. */
async function run(main: () => Promise<void>): Promise<{ written: string; exitCodes: number[] }> {
  let written = '';
  const exitCodes: number[] = [];
  await runMain('ledger', main, {
    stderr: { write: (text: string) => (written += text) },
    exit: (code) => exitCodes.push(code),
  });
  return { written, exitCodes };
}

describe('runMain', () => {
  it('leaves a process that started alone: no output, no exit', async () => {
    let ran = false;

    expect(
      await run(async () => {
        ran = true;
      }),
    ).toEqual({ written: '', exitCodes: [] });
    expect(ran).toBe(true);
  });

  it('writes a failure to start with its stack to stderr, naming the service, and exits 1', async () => {
    const { written, exitCodes } = await run(async () => {
      throw new Error('listen EADDRINUSE: address already in use 127.0.0.1:8054');
    });

    expect(written).toMatch(
      /^ledger failed to start: Error: listen EADDRINUSE: address already in use 127\.0\.0\.1:8054\n\s+at /,
    );
    expect(written.endsWith('\n')).toBe(true);
    expect(exitCodes).toEqual([1]);
  });

  it('falls back to the message of an error without a stack, and to the text of anything else thrown', async () => {
    const stackless = new Error('no stack here');
    stackless.stack = undefined;

    expect(await run(() => Promise.reject(stackless))).toEqual({
      written: 'ledger failed to start: no stack here\n',
      exitCodes: [1],
    });
    expect(await run(() => Promise.reject('a plain string'))).toEqual({
      written: 'ledger failed to start: a plain string\n',
      exitCodes: [1],
    });
  });
});
