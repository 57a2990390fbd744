import { isLogMessage, loggedPort, spawnProcess, stopGracefully } from '@sika/testing';
import type { SpawnedProcess } from '@sika/testing';

/**
 * A stand-in service: logs JSON lines as pino does, then on SIGTERM logs "shutdown complete" and exits
 * with `exitCode` (unless `completes` is false).
 */
function standIn({ exitCode = 0, completes = true } = {}): Promise<SpawnedProcess> {
  const script = `
    const log = (fields) => console.log(JSON.stringify({ level: 'info', ...fields }));
    process.on('SIGTERM', () => {
      ${completes ? "log({ msg: 'shutdown complete' });" : ''}
      process.exit(${exitCode});
    });
    log({ port: 50123, msg: 'grpc server listening' });
    log({ http_port: 8082, grpc_port: 50124, msg: 'psp-connector listening' });
    setInterval(() => {}, 1000);
  `;
  return spawnProcess({
    name: 'stand-in',
    command: process.execPath,
    args: ['-e', script],
    readyWhen: isLogMessage('psp-connector listening'),
  });
}

describe('loggedPort', () => {
  it('reads the port a process logged with a message, from the field named', async () => {
    const service = await standIn();
    try {
      expect(await loggedPort(service, 'grpc server listening')).toBe(50123);
      expect(await loggedPort(service, 'psp-connector listening', 'grpc_port')).toBe(50124);
      await expect(loggedPort(service, 'psp-connector listening')).rejects.toThrow(
        'stand-in logged "psp-connector listening" without a port',
      );
    } finally {
      await service.stop();
    }
  });
});

describe('isLogMessage', () => {
  it('matches the JSON line whose msg is exactly the message, nothing else', () => {
    const matches = isLogMessage('shutdown complete');

    expect(matches('{"level":"info","msg":"shutdown complete"}')).toBe(true);
    expect(matches('{"level":"info","msg":"shutdown complete soon"}')).toBe(false);
    expect(matches('shutdown complete')).toBe(false);
    expect(matches('{not json "msg":"shutdown complete"')).toBe(false);
  });
});

describe('stopGracefully', () => {
  it('resolves when the process exits 0 after "shutdown complete"', async () => {
    await expect(stopGracefully(await standIn())).resolves.toBeUndefined();
  });

  it('rejects, quoting the output, when the process exits with another code', async () => {
    await expect(stopGracefully(await standIn({ exitCode: 1 }))).rejects.toThrow(
      /stand-in did not stop gracefully on SIGTERM \(code 1, signal null\):\n.*grpc server listening/s,
    );
  });

  it('rejects when the process exits 0 without completing its shutdown sequence', async () => {
    await expect(stopGracefully(await standIn({ completes: false }))).rejects.toThrow(
      'stand-in did not stop gracefully on SIGTERM (code 0, signal null)',
    );
  });
});
