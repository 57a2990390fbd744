import { execFileSync } from 'node:child_process';

import { ofKind, validateAll, workloads } from './support/kubernetes';
import { headingAnchors, parseMarkdown } from './support/markdown';
import { readText, REPO } from './support/repo';
import { renderUmbrella, UMBRELLA } from './support/renders';
import { helmTemplate, helmTemplateError, type Manifest } from './support/tools';

// The monitoring objects of the charts: off by default; on, a ServiceMonitor per service, the PrometheusRule
// and the dashboard's ConfigMap. The two Prometheus Operator kinds are not in kubernetes-models: they are checked
// against the fields their CRDs (monitoring.coreos.com/v1) document, and every series they name must be one the
// code exports.

const RUNBOOKS = 'https://docs.example/sika/operating.md';
const MONITORED = [
  'monitoring.prometheusRule.enabled=true',
  `monitoring.prometheusRule.runbookUrl=${RUNBOOKS}`,
  'monitoring.grafanaDashboard.enabled=true',
  'global.monitoring.serviceMonitor=true',
];

type Spec = { [field: string]: Spec | 'string' | 'number' | 'boolean' | 'object' | [Spec] };

/** Throws on a field the spec does not document or a value of another type; `[Spec]` is an array of them. */
function checkFields(value: unknown, spec: Spec | Spec[keyof Spec], where: string): void {
  if (typeof spec === 'string') {
    const kind = spec === 'object' ? 'object' : spec;
    if (typeof value !== kind || value === null) throw new Error(`${where}: not a ${spec}`);
    return;
  }
  if (Array.isArray(spec)) {
    if (!Array.isArray(value)) throw new Error(`${where}: not an array`);
    value.forEach((item, index) => checkFields(item, spec[0], `${where}[${index}]`));
    return;
  }
  if (typeof value !== 'object' || value === null) throw new Error(`${where}: not an object`);
  for (const [field, item] of Object.entries(value)) {
    const fieldSpec = spec[field];
    if (fieldSpec === undefined) throw new Error(`${where}.${field}: not a field of the CRD`);
    checkFields(item, fieldSpec, `${where}.${field}`);
  }
}

const METADATA: Spec = { name: 'string', namespace: 'string', labels: 'object', annotations: 'object' };
/** monitoring.coreos.com/v1 ServiceMonitor, the fields these charts may use. */
const SERVICE_MONITOR: Spec = {
  apiVersion: 'string',
  kind: 'string',
  metadata: METADATA,
  spec: {
    jobLabel: 'string',
    selector: { matchLabels: 'object' },
    namespaceSelector: { matchNames: ['string' as unknown as Spec], any: 'boolean' },
    endpoints: [
      { port: 'string', path: 'string', scheme: 'string', interval: 'string', scrapeTimeout: 'string' },
    ],
  },
};
/** monitoring.coreos.com/v1 PrometheusRule: groups of alerting rules. */
const PROMETHEUS_RULE: Spec = {
  apiVersion: 'string',
  kind: 'string',
  metadata: METADATA,
  spec: {
    groups: [
      {
        name: 'string',
        interval: 'string',
        rules: [
          {
            alert: 'string',
            record: 'string',
            expr: 'string',
            for: 'string',
            labels: 'object',
            annotations: 'object',
          },
        ],
      },
    ],
  },
};

interface Rule {
  alert: string;
  expr: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** The series an expression reads: identifiers followed by `{`, `[` or `)`, less PromQL's own words. */
function seriesOf(expr: string): string[] {
  const words = new Set(['sum', 'by', 'max', 'rate', 'increase', 'delta', 'histogram_quantile', 'le']);
  return [...expr.matchAll(/\b([a-z_][a-z0-9_]*)\s*(?=[{[])/g)]
    .map((match) => match[1]!)
    .filter((name) => !words.has(name));
}

/** Whether the code of packages/ or services/ names the series (a histogram's by its base name). */
function exportedByTheCode(series: string): boolean {
  const base = series.replace(/_(bucket|count|sum)$/, '');
  try {
    execFileSync('grep', ['-rqs', '--include=*.ts', `'${base}'`, 'packages', 'services'], { cwd: REPO });
    return true;
  } catch {
    return false;
  }
}
/** Series Prometheus or kube-state-metrics makes, not Sika. */
const EXTERNAL_SERIES = new Set(['kube_pod_status_ready']);

describe('monitoring objects', () => {
  let monitored: Manifest[];
  beforeAll(() => {
    monitored = helmTemplate(UMBRELLA, { set: MONITORED });
  });

  it('are off by default: no CRD a cluster may lack, no dashboard', () => {
    const kinds = renderUmbrella('default').map((manifest) => manifest.kind);
    expect(kinds).not.toContain('ServiceMonitor');
    expect(kinds).not.toContain('PrometheusRule');
    expect(kinds).not.toContain('ConfigMap');
  });

  it("scrape every service's metrics port, the Service's own, through a ServiceMonitor of the CRD's fields", async () => {
    const monitors = ofKind(monitored, 'ServiceMonitor');
    const services = ofKind<
      Manifest & { spec: { selector: Record<string, string>; ports: { name: string }[] } }
    >(monitored, 'Service');
    expect(monitors.map((monitor) => monitor.metadata.name).sort()).toEqual(
      services.map((service) => service.metadata.name).sort(),
    );
    for (const monitor of monitors) {
      checkFields(monitor, SERVICE_MONITOR, `ServiceMonitor ${monitor.metadata.name}`);
      const { spec } = monitor as unknown as { spec: { selector: { matchLabels: Record<string, string> } } };
      const service = services.find((each) =>
        Object.entries(spec.selector.matchLabels).every(
          ([key, value]) => each.metadata.labels?.[key] === value,
        ),
      );
      expect(service?.metadata.name).toBe(monitor.metadata.name);
      expect(service?.spec.ports.map((port) => port.name)).toContain('metrics');
    }
    await validateAll(ofKind(monitored, 'ConfigMap'));
  });

  it('alert on what an on-call must act on, each with its runbook paragraph in docs/operating.md', () => {
    const [rule, ...others] = ofKind(monitored, 'PrometheusRule');
    expect(others).toEqual([]);
    checkFields(rule, PROMETHEUS_RULE, 'PrometheusRule');
    const rules = (rule as unknown as { spec: { groups: { rules: Rule[] }[] } }).spec.groups.flatMap(
      (group) => group.rules,
    );
    expect(rules.map((each) => each.alert).sort()).toEqual([
      'SikaAuditViolation',
      'SikaDatabasePoolSaturated',
      'SikaDeadLettersGrowing',
      'SikaHttp5xxRate',
      'SikaNotReady',
      'SikaOutboxStuck',
      'SikaPispiErrorRate',
      'SikaWebhookBacklog',
    ]);
    const anchors = headingAnchors(parseMarkdown('docs/operating.md'));
    for (const { alert, expr, labels, annotations } of rules) {
      expect({ alert, severity: labels.severity }).toEqual({
        alert,
        severity: expect.stringMatching(/^(critical|warning)$/),
      });
      expect(annotations.summary).toBeTruthy();
      expect(annotations.runbook_url).toBe(`${RUNBOOKS}#${alert.toLowerCase()}`);
      expect({ alert, runbook: anchors.has(alert.toLowerCase()) }).toEqual({ alert, runbook: true });
      for (const series of seriesOf(expr)) {
        expect({
          alert,
          series,
          exported: EXTERNAL_SERIES.has(series) || exportedByTheCode(series),
        }).toMatchObject({
          exported: true,
        });
      }
    }
  });

  it('traces every service to the collector given, a tenth of the traces by default, and none without one', () => {
    const envOf = (manifests: Manifest[]) =>
      workloads(manifests)
        .filter((workload) => workload.kind === 'Deployment')
        .map((workload) =>
          Object.fromEntries(
            (workload.spec.template.spec.containers[0]?.env ?? [])
              .filter((variable) => variable.name.startsWith('OTEL_'))
              .map((variable) => [variable.name, variable.value]),
          ),
        );
    const traced = envOf(
      helmTemplate(UMBRELLA, { set: ['global.tracing.otlpEndpoint=http://collector:4318'] }),
    );
    expect(traced).toHaveLength(10);
    for (const env of traced) {
      expect(env).toEqual({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
      });
    }
    expect(envOf(renderUmbrella('default')).every((env) => Object.keys(env).length === 0)).toBe(true);
  });

  it('refuses to render alerts without where their runbooks are', () => {
    const unset = MONITORED.filter(
      (assignment) => !assignment.startsWith('monitoring.prometheusRule.runbookUrl'),
    );
    expect(helmTemplateError(UMBRELLA, { set: unset })).toContain('monitoring.prometheusRule.runbookUrl');
  });

  it('ship a Grafana dashboard whose panels read series the code exports', () => {
    const [configMap] = ofKind<Manifest & { data: Record<string, string> }>(monitored, 'ConfigMap');
    expect(configMap?.metadata.labels).toMatchObject({ grafana_dashboard: '1' });
    const dashboard = JSON.parse(configMap!.data['sika.json']!) as {
      uid: string;
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.uid).toBe('sika-overview');
    expect(JSON.parse(readText('charts/sika/dashboards/sika.json'))).toEqual(dashboard);
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets) {
        for (const series of seriesOf(expr)) {
          expect({ panel: panel.title, series, exported: exportedByTheCode(series) }).toMatchObject({
            exported: true,
          });
        }
      }
    }
  });
});
