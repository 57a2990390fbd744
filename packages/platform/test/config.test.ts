import { fixture, jsonLines, spawnTypeScript } from './helpers/child-process';

const CONFIG_MAIN = fixture('config-main.ts');

describe('a process whose configuration is incomplete', () => {
  it('stops with exit code 1 and names each missing or invalid variable on stderr', async () => {
    const run = spawnTypeScript(CONFIG_MAIN, {
      GRPC_PORT: 'not-a-port',
      DATABASE_URL: 'https://wrong.example',
    });

    const { code } = await run.exited;

    expect(code).toBe(1);
    const stderr = run.stderr();
    expect(stderr).toMatch(/^Invalid configuration\n/);
    expect(stderr).toContain('MERCHANTS_API_SECRET is missing');
    expect(stderr).toContain('GRPC_PORT is invalid');
    expect(stderr).toContain('DATABASE_URL is invalid');
    expect(stderr).not.toContain('wrong.example');
    expect(stderr.trim().split('\n')).toHaveLength(4);
    expect(run.stdoutLines).toEqual([]);
  });

  it('names a variable set to an empty string as missing', async () => {
    const run = spawnTypeScript(CONFIG_MAIN, {
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/sika',
      GRPC_PORT: '8051',
      MERCHANTS_API_SECRET: '',
    });

    expect((await run.exited).code).toBe(1);
    expect(run.stderr()).toBe('Invalid configuration\n  MERCHANTS_API_SECRET is missing\n');
  });
});

describe('a process whose configuration is complete', () => {
  it('starts with the typed values', async () => {
    const run = spawnTypeScript(CONFIG_MAIN, {
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/sika',
      GRPC_PORT: '8051',
      MERCHANTS_API_SECRET: 's3cret',
    });

    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.stderr()).toBe('');
    expect(jsonLines(run.stdoutLines)).toEqual([
      expect.objectContaining({ msg: 'started', grpc_port: 8051 }),
    ]);
  });
});
