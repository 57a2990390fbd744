import { brokerReadiness } from './readiness';

describe('brokerReadiness', () => {
  it('is the `broker` check: passes while connected, fails while the connection is down', async () => {
    let connected = true;
    const readiness = brokerReadiness({ isConnected: () => connected });

    expect(readiness.name).toBe('broker');
    await expect(readiness.check()).resolves.toBeUndefined();
    connected = false;
    await expect(readiness.check()).rejects.toThrow('not connected to RabbitMQ');
  });
});
