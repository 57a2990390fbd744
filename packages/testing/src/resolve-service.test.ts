import { DockerUnavailableError } from './containers';
import { INFRA_SERVICES } from './infra-services';
import { resolveService, type ResolveDeps } from './resolve-service';

const postgres = INFRA_SERVICES.postgres;

function deps(overrides: Partial<ResolveDeps>): ResolveDeps {
  return {
    env: {},
    isPortOpen: async () => false,
    startContainer: async () => {
      throw new DockerUnavailableError('no Docker engine found');
    },
    ...overrides,
  };
}

describe('resolveService', () => {
  it('takes the environment variable first, without probing', async () => {
    const isPortOpen = jest.fn(async () => true);
    const resolved = await resolveService(
      postgres,
      deps({ env: { DATABASE_URL: 'postgres://ci/db' }, isPortOpen }),
    );
    expect(resolved).toEqual({ url: 'postgres://ci/db', source: 'env' });
    expect(isPortOpen).not.toHaveBeenCalled();
  });

  it('uses the local server on its default port when one answers', async () => {
    const resolved = await resolveService(postgres, deps({ isPortOpen: async (_, port) => port === 5432 }));
    expect(resolved).toEqual({ url: 'postgres://postgres@127.0.0.1:5432/postgres', source: 'local' });
  });

  it('starts a container when nothing listens locally', async () => {
    const startContainer = jest.fn(async () => 'postgres://postgres@localhost:49153/postgres');
    const resolved = await resolveService(postgres, deps({ startContainer }));
    expect(resolved).toEqual({ url: 'postgres://postgres@localhost:49153/postgres', source: 'container' });
    expect(startContainer).toHaveBeenCalledWith('postgres');
  });

  it('says what to install when there is no Docker engine either', async () => {
    const failure = resolveService(INFRA_SERVICES.redis, deps({}));
    await expect(failure).rejects.toThrow(/REDIS_URL is not set/);
    await expect(failure).rejects.toThrow(/apt-get install -y redis-server/);
    await expect(failure).rejects.toThrow(/no Docker engine found/);
  });

  it('reports a container that fails to start as such, not as a missing engine', async () => {
    const startContainer = async (): Promise<string> => {
      throw new Error('pull access denied');
    };
    await expect(resolveService(INFRA_SERVICES.rabbitmq, deps({ startContainer }))).rejects.toThrow(
      'RabbitMQ: starting it with testcontainers failed: pull access denied',
    );
  });
});
