import { createServer } from 'node:net';
import path from 'node:path';
import { spawnProcess } from '@sika/testing';

const httpServer = path.join(__dirname, 'fixtures/processes/http-server.ts');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('spawnProcess', () => {
  it('waits for an output line, captures output with the name, and stops gracefully', async () => {
    const server = await spawnProcess({
      name: 'web',
      command: process.execPath,
      args: ['--import', 'tsx', httpServer],
      env: { PORT: String(await freePort()) },
      readyWhen: (line) => line === 'listening',
    });

    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(server.output()).toBe('[web] booting\n[web] listening\n[web] draining');
  });

  it('waits until the readiness URL answers', async () => {
    const port = await freePort();
    const server = await spawnProcess({
      name: 'web',
      command: process.execPath,
      args: ['--import', 'tsx', httpServer],
      env: { PORT: String(port) },
      readyUrl: `http://127.0.0.1:${port}/`,
    });
    try {
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
    } finally {
      await server.stop();
    }
  });

  it('fails with the captured output when the process dies before it is ready', async () => {
    const failing = spawnProcess({
      name: 'broken',
      command: process.execPath,
      args: ['-e', 'console.error("missing DATABASE_URL"); process.exit(3)'],
      readyWhen: (line) => line === 'ready',
    });
    await expect(failing).rejects.toThrow(
      /broken did not become ready: .*code 3.*\n--- output of broken ---\n\[broken\] missing DATABASE_URL/s,
    );
  });

  it('fails with the captured output when readiness times out', async () => {
    const silent = spawnProcess({
      name: 'slow',
      command: process.execPath,
      args: ['-e', 'console.log("still starting"); setInterval(() => {}, 1000)'],
      readyWhen: (line) => line === 'ready',
      // Long enough for Node to start and print under CI's load (300 ms was not, once), short for a test.
      readyTimeoutMs: 3_000,
    });
    await expect(silent).rejects.toThrow(
      /no matching output line within 3000 ms[\s\S]*\[slow\] still starting/,
    );
  });

  it('stop() escalates to SIGKILL when the process ignores SIGTERM', async () => {
    const stubborn = await spawnProcess({
      name: 'stubborn',
      command: process.execPath,
      args: [
        '-e',
        'process.on("SIGTERM", () => console.log("ignored")); console.log("ready"); setInterval(() => {}, 1000)',
      ],
      readyWhen: (line) => line === 'ready',
    });
    expect(await stubborn.stop({ timeoutMs: 200 })).toEqual({ code: null, signal: 'SIGKILL' });
    expect(stubborn.output()).toContain('[stubborn] ignored');
  });
});
