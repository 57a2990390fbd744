import { named } from './support/kubernetes';
import type { Workload } from './support/kubernetes';
import { renderUmbrella } from './support/renders';
import { helmTemplate } from './support/tools';

// Internal mutual TLS: every service that speaks gRPC mounts its own certificate Secret (cert-manager's
// format: tls.crt, tls.key, ca.crt) read-only and reads it from GRPC_TLS_*_FILE; nothing else does.

const GRPC_SPEAKERS = [
  'checkout-web',
  'dashboard-web',
  'gateway',
  'ledger',
  'merchants',
  'payments',
  'payouts',
  'psp-connector',
  'webhook-dispatcher',
];

function podOf(manifests: ReturnType<typeof renderUmbrella>, service: string) {
  return named<Workload>(manifests, 'Deployment', `sika-${service}`)!.spec.template.spec;
}

describe('internal mutual TLS', () => {
  const manifests = renderUmbrella('default');

  it.each(GRPC_SPEAKERS)(
    '%s: mounts its grpc-tls Secret read-only and reads the three files from it',
    (service) => {
      const pod = podOf(manifests, service);
      const container = pod.containers[0]!;

      expect(pod.volumes?.find((volume) => volume.name === 'grpc-tls')).toEqual({
        name: 'grpc-tls',
        secret: { secretName: `sika-${service}-grpc-tls`, defaultMode: 0o440 },
      });
      expect(container.volumeMounts?.find((mount) => mount.name === 'grpc-tls')).toEqual({
        name: 'grpc-tls',
        mountPath: '/etc/sika/grpc-tls',
        readOnly: true,
      });
      expect(container.env?.filter((variable) => variable.name.startsWith('GRPC_TLS_'))).toEqual([
        { name: 'GRPC_TLS_CERT_FILE', value: '/etc/sika/grpc-tls/tls.crt' },
        { name: 'GRPC_TLS_KEY_FILE', value: '/etc/sika/grpc-tls/tls.key' },
        { name: 'GRPC_TLS_CA_FILE', value: '/etc/sika/grpc-tls/ca.crt' },
      ]);
    },
  );

  it('leaves the simulator, which speaks no gRPC, without certificate', () => {
    const pod = podOf(manifests, 'pispi-simulator');

    expect(pod.volumes?.map((volume) => volume.name)).not.toContain('grpc-tls');
    expect(pod.containers[0]!.env?.map((variable) => variable.name)).not.toContain('GRPC_TLS_CERT_FILE');
  });

  it('takes another Secret and mount path when told', () => {
    const pod = podOf(
      helmTemplate('charts/ledger', {
        values: { grpcTls: { existingSecret: 'ledger-mtls', mountPath: '/var/run/mtls' } },
      }),
      'ledger',
    );

    expect(pod.volumes?.find((volume) => volume.name === 'grpc-tls')).toMatchObject({
      secret: { secretName: 'ledger-mtls' },
    });
    expect(pod.containers[0]!.env?.find((variable) => variable.name === 'GRPC_TLS_CA_FILE')?.value).toBe(
      '/var/run/mtls/ca.crt',
    );
  });
});
