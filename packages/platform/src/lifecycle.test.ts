import { Writable } from 'node:stream';

import { closing, Service } from './lifecycle';
import type { Component } from './lifecycle';
import { createLogger } from './logger';

const quietLogger = createLogger({
  service: 'lifecycle-test',
  destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});

function recording(name: string, calls: string[], { failStart = false, failStop = false } = {}): Component {
  return {
    name,
    start: async () => {
      calls.push(`start ${name}`);
      if (failStart) throw new Error(`${name} cannot start`);
    },
    stop: async () => {
      calls.push(`stop ${name}`);
      if (failStop) throw new Error(`${name} cannot stop`);
    },
  };
}

describe('Service', () => {
  it('starts components in order and stops them in reverse order', async () => {
    const calls: string[] = [];
    const service = new Service(quietLogger).add(
      recording('probes', calls),
      recording('database', calls),
      recording('grpc server', calls),
    );

    await service.start();
    await service.stop();

    expect(calls).toEqual([
      'start probes',
      'start database',
      'start grpc server',
      'stop grpc server',
      'stop database',
      'stop probes',
    ]);
  });

  it('closes what had started when a component fails to start, and rethrows', async () => {
    const calls: string[] = [];
    const service = new Service(quietLogger).add(
      recording('probes', calls),
      recording('broker', calls, { failStart: true }),
      recording('grpc server', calls),
    );

    await expect(service.start()).rejects.toThrow('broker cannot start');

    expect(calls).toEqual(['start probes', 'start broker', 'stop probes']);
  });

  it('runs every stop even when one fails, then throws the first failure', async () => {
    const calls: string[] = [];
    const service = new Service(quietLogger).add(
      recording('pool', calls),
      recording('relay', calls, { failStop: true }),
      closing('client', () => calls.push('close client')),
    );
    await service.start();

    await expect(service.stop()).rejects.toThrow('relay cannot stop');

    expect(calls).toEqual(['start pool', 'start relay', 'close client', 'stop relay', 'stop pool']);
  });
});
