import { existsSync } from 'node:fs';
import { DockerUnavailableError, startContainer } from '../src/containers';

// Only meaningful where no engine runs (as on the reference machine); with Docker it would start Redis.
const noDockerEngine = !process.env.DOCKER_HOST && !existsSync('/var/run/docker.sock');

(noDockerEngine ? describe : describe.skip)('startContainer without a Docker engine', () => {
  it('fails fast with DockerUnavailableError', async () => {
    const started = Date.now();
    await expect(startContainer('redis')).rejects.toBeInstanceOf(DockerUnavailableError);
    // Module loading included; the engine probe itself takes a few milliseconds.
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
