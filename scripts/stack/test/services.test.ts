import { builtService } from '../services';

/** Every service's V8 heap and malloc arenas, as the charts set them too (sika-lib's commonEnv). */
const HEAP_SIZED_FOR_A_SERVICE = '--max-old-space-size=96 --max-semi-space-size=4';
const ONE_MALLOC_ARENA = '1';

describe('builtService', () => {
  it('runs a gRPC service from its build, with its ports, ready on its metrics port', () => {
    const spec = builtService('merchants', { DATABASE_URL: 'postgres://sika_merchants@127.0.0.1:5432/sika' });

    expect(spec.command).toBe(process.execPath);
    expect(spec.args).toEqual(['services/merchants/dist/main.js']);
    expect(spec.env).toEqual({
      NODE_OPTIONS: HEAP_SIZED_FOR_A_SERVICE,
      MALLOC_ARENA_MAX: ONE_MALLOC_ARENA,
      GRPC_PORT: '8051',
      METRICS_PORT: '9101',
      DATABASE_URL: 'postgres://sika_merchants@127.0.0.1:5432/sika',
    });
    expect(spec.readyUrl).toBe('http://127.0.0.1:9101/readyz');
  });

  it('probes an HTTP service on its operations port, not on its public one', () => {
    const spec = builtService('psp-connector', {}, { callbacks: 'http://127.0.0.1:8082/pispi/callbacks' });

    expect(spec.env).toEqual({
      NODE_OPTIONS: HEAP_SIZED_FOR_A_SERVICE,
      MALLOC_ARENA_MAX: ONE_MALLOC_ARENA,
      GRPC_PORT: '8053',
      HTTP_PORT: '8082',
      METRICS_PORT: '9103',
    });
    expect(spec.readyUrl).toBe('http://127.0.0.1:9103/readyz');
    expect(spec.urls).toEqual({ callbacks: 'http://127.0.0.1:8082/pispi/callbacks' });
  });
});
