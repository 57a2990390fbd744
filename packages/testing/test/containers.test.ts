import { existsSync } from 'node:fs';
import { DockerUnavailableError, startContainer } from '../src/containers';

// Only meaningful where no engine runs (as on the reference machine); with Docker it would start Redis.
const noDockerEngine = !process.env.DOCKER_HOST && !existsSync('/var/run/docker.sock');

(noDockerEngine ? describe : describe.skip)('startContainer without a Docker engine', () => {
  it('fails fast with DockerUnavailableError', async () => {
    const started = Date.now();
    await expect(startContainer('redis')).rejects.toBeInstanceOf(DockerUnavailableError);
    // The point is not waiting for testcontainers' own 60 s engine timeout: module loading included, the probe
    // takes milliseconds alone and a few seconds on a busy machine, far below that.
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
