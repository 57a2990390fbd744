import { ArgumentError } from './arguments';
import { readAddresses } from './environment';

describe('readAddresses', () => {
  it('defaults to the local port table', () => {
    expect(readAddresses({})).toEqual({ merchants: '127.0.0.1:50051', webhookDispatcher: '127.0.0.1:50055' });
    expect(readAddresses({ MERCHANTS_GRPC_ADDRESS: '', WEBHOOK_DISPATCHER_GRPC_ADDRESS: '' })).toEqual({
      merchants: '127.0.0.1:50051',
      webhookDispatcher: '127.0.0.1:50055',
    });
  });

  it('takes host:port from the environment, names and IPv6 included', () => {
    expect(
      readAddresses({
        MERCHANTS_GRPC_ADDRESS: 'merchants.sika.svc:50051',
        WEBHOOK_DISPATCHER_GRPC_ADDRESS: '[::1]:7000',
      }),
    ).toEqual({ merchants: 'merchants.sika.svc:50051', webhookDispatcher: '[::1]:7000' });
  });

  it.each(['localhost', 'http://127.0.0.1:50051', '127.0.0.1:0', '127.0.0.1:70000', 'host:port'])(
    'refuses %j, naming the variable',
    (value) => {
      expect(() => readAddresses({ MERCHANTS_GRPC_ADDRESS: value })).toThrow(
        new ArgumentError('MERCHANTS_GRPC_ADDRESS must be host:port, e.g. 127.0.0.1:50051'),
      );
    },
  );
});
