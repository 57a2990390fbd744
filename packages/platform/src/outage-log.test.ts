import { Writable } from 'node:stream';

import { createLogger } from './logger';
import { OutageLog } from './outage-log';

describe('OutageLog', () => {
  it('logs the first failure of an outage and its end, once each', () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const destination = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
        done();
      },
    });
    const outage = new OutageLog(createLogger({ service: 'gateway', destination }), {
      down: 'down',
      up: 'up',
    });

    outage.recovered();
    for (let request = 0; request < 3; request++) outage.failed(new Error('ECONNREFUSED'));
    outage.recovered();
    outage.recovered();
    outage.failed(new Error('ETIMEDOUT'));

    expect(lines.map(({ msg }) => msg)).toEqual(['down', 'up', 'down']);
  });
});
