import path from 'node:path';

import { testIdentity } from '@sika/testing';

import { ArgumentError } from './arguments';
import { LOCAL_TLS_DIRECTORY, readAddresses, readGrpcTls } from './environment';

describe('readAddresses', () => {
  it('defaults to the local port table', () => {
    const local = {
      merchants: '127.0.0.1:8051',
      payments: '127.0.0.1:8052',
      ledger: '127.0.0.1:8054',
      webhookDispatcher: '127.0.0.1:8055',
      payouts: '127.0.0.1:8056',
      simulatorUrl: 'http://127.0.0.1:8090',
    };
    expect(readAddresses({})).toEqual(local);
    expect(readAddresses({ MERCHANTS_GRPC_ADDRESS: '', WEBHOOK_DISPATCHER_GRPC_ADDRESS: '' })).toEqual(local);
  });

  it('takes host:port from the environment, names and IPv6 included', () => {
    expect(
      readAddresses({
        MERCHANTS_GRPC_ADDRESS: 'merchants.sika.svc:8051',
        PAYMENTS_GRPC_ADDRESS: 'payments.sika.svc:8052',
        LEDGER_GRPC_ADDRESS: 'ledger.sika.svc:8054',
        WEBHOOK_DISPATCHER_GRPC_ADDRESS: '[::1]:7000',
        PAYOUTS_GRPC_ADDRESS: 'payouts.sika.svc:8056',
        SIMULATOR_URL: 'http://pispi-simulator.sika.svc:8090',
      }),
    ).toEqual({
      merchants: 'merchants.sika.svc:8051',
      payments: 'payments.sika.svc:8052',
      ledger: 'ledger.sika.svc:8054',
      webhookDispatcher: '[::1]:7000',
      payouts: 'payouts.sika.svc:8056',
      simulatorUrl: 'http://pispi-simulator.sika.svc:8090',
    });
  });

  it('refuses a simulator URL that is not http(s)', () => {
    expect(() => readAddresses({ SIMULATOR_URL: 'ftp://127.0.0.1' })).toThrow(
      new ArgumentError('SIMULATOR_URL must be an http:// or https:// URL'),
    );
  });

  it.each(['localhost', 'http://127.0.0.1:8051', '127.0.0.1:0', '127.0.0.1:70000', 'host:port'])(
    'refuses %j, naming the variable',
    (value) => {
      expect(() => readAddresses({ MERCHANTS_GRPC_ADDRESS: value })).toThrow(
        new ArgumentError('MERCHANTS_GRPC_ADDRESS must be host:port, e.g. 127.0.0.1:8051'),
      );
    },
  );
});

describe('readGrpcTls', () => {
  it('reads the certificate, key and CA the variables name', async () => {
    const { env, tls } = await testIdentity('cli');

    expect(readGrpcTls(env)).toEqual(tls);
  });

  it('defaults to the local stack’s files in .sika/tls at the repository root', () => {
    expect(LOCAL_TLS_DIRECTORY).toBe(path.resolve(__dirname, '../../../.sika/tls'));
  });

  it('names each variable whose file it cannot use, as a fault of the environment', async () => {
    const { env } = await testIdentity('cli');
    const ledgerKey = (await testIdentity('ledger')).env.GRPC_TLS_KEY_FILE;
    const nowhere = path.join(__dirname, 'no-such-directory');

    expect(() => readGrpcTls({ GRPC_TLS_CERT_FILE: env.GRPC_TLS_CERT_FILE }, nowhere)).toThrow(
      new ArgumentError(
        `GRPC_TLS_KEY_FILE is invalid: cannot read the file ${path.join(nowhere, 'cli.key')}; ` +
          `GRPC_TLS_CA_FILE is invalid: cannot read the file ${path.join(nowhere, 'ca.crt')}`,
      ),
    );
    expect(() => readGrpcTls({ ...env, GRPC_TLS_KEY_FILE: ledgerKey })).toThrow(
      new ArgumentError(
        'GRPC_TLS_KEY_FILE is invalid: not the private key of the GRPC_TLS_CERT_FILE certificate',
      ),
    );
  });
});
