import path from 'node:path';
import { OtlpReceiver } from '@sika/testing';

import { spawnTypeScript } from './helpers/child-process';

const FIXTURE = path.join(__dirname, 'fixtures/traced-main.ts');

function jsonLines(lines: readonly string[]): Record<string, unknown>[] {
  return lines
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('startTracing', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
  });
  afterAll(() => receiver.close());

  it('exports the spans of HTTP in and out over OTLP http/json, one trace, ids in the logs', async () => {
    const child = spawnTypeScript(FIXTURE, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    expect(await child.exited).toEqual({ code: 0, signal: null });

    const lines = jsonLines(child.stdoutLines);
    expect(lines).toContainEqual({ sdkLoaded: true });
    const handled = lines.find((line) => line.msg === 'request handled')!;
    expect(handled).toMatchObject({ trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const spans = receiver.trace(handled.trace_id as string);
    expect(spans.every((span) => span.service === 'traced-fixture')).toBe(true);
    const client = spans.find((span) => span.kind === 3)!;
    const server = spans.find((span) => span.kind === 2)!;
    expect(server.parentSpanId).toBe(client.spanId);
    expect(handled.span_id).toBe(server.spanId);
  });

  it('loads nothing of the SDK and logs no ids without an endpoint', async () => {
    const child = spawnTypeScript(FIXTURE);
    expect(await child.exited).toEqual({ code: 0, signal: null });

    const lines = jsonLines(child.stdoutLines);
    expect(lines).toContainEqual({ sdkLoaded: false });
    expect(lines.find((line) => line.msg === 'request handled')).not.toHaveProperty('trace_id');
  });
});
