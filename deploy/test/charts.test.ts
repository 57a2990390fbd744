import { ofKind, validateAll } from './support/kubernetes';
import type { Workload } from './support/kubernetes';
import { readYaml } from './support/repo';
import {
  productionValuesFor,
  renderServiceChart,
  renderUmbrella,
  serviceCharts,
  UMBRELLA,
} from './support/renders';
import { LIBRARY, PRODUCTION_VALUES } from './support/renders';
import { helmLint, helmTemplateError } from './support/tools';

// helm lint --strict and helm template of every chart, with its default values and a production-like file,
// every rendered object validated against the Kubernetes API schemas.

describe('helm lint --strict', () => {
  it('passes for the library chart', () => {
    const result = helmLint(LIBRARY);
    expect(result.stderr).toBe('');
    expect(result.ok).toBe(true);
  });

  it.each(serviceCharts())('passes for %s with its defaults and with production-like values', (service) => {
    for (const options of [{}, { values: productionValuesFor(service) }]) {
      const result = helmLint(`charts/${service}`, options);
      expect(result.stderr).toBe('');
      expect(result.ok).toBe(true);
    }
  });

  it('passes for the umbrella chart with its defaults and with values-production.yaml', () => {
    for (const options of [{}, { valuesFiles: [PRODUCTION_VALUES] }]) {
      const result = helmLint(UMBRELLA, options);
      expect(result.stderr).toBe('');
      expect(result.ok).toBe(true);
    }
  });
});

describe('helm template, validated against the Kubernetes schemas', () => {
  it.each(serviceCharts())(
    '%s renders valid objects with its defaults and production-like values',
    async (service) => {
      for (const flavour of ['default', 'production'] as const) {
        const manifests = renderServiceChart(service, flavour);
        expect(manifests.map((manifest) => manifest.kind)).toEqual(
          expect.arrayContaining([
            'Deployment',
            'Service',
            'ServiceAccount',
            'PodDisruptionBudget',
            'NetworkPolicy',
          ]),
        );
        await validateAll(manifests);
      }
    },
  );

  it.each(['default', 'production', 'dev'] as const)(
    'the umbrella chart renders valid objects (%s values)',
    async (flavour) => {
      await validateAll(renderUmbrella(flavour));
    },
  );
});

describe('values.schema.json', () => {
  const refused = (chart: string, values: unknown): string => helmTemplateError(chart, { values });

  it.each([
    ['a replica count that is not a number', { replicaCount: 'two' }],
    ['a port out of range', { ports: { grpc: 70000 } }],
    ['a writable root filesystem', { containerSecurityContext: { readOnlyRootFilesystem: false } }],
    ['a root user', { podSecurityContext: { runAsNonRoot: false } }],
    // null removes a key from the defaults in helm: the only way to drop the limits.
    ['a container without limits', { resources: { limits: null } }],
    ['a secret given as a plain value', { extraEnv: { API_KEY_PEPPER: 'in-plain-text-in-values' } }],
    ['a variable the chart sets itself', { extraEnv: { GRPC_PORT: '1' } }],
    ['an unknown secret variable', { secrets: { keys: { NOT_A_SECRET: { secret: 'x' } } } }],
    ['an unknown setting', { replicas: 3 }],
    ['a log level the service does not know', { logLevel: 'verbose' }],
    ['a grace period shorter than the drain', { terminationGracePeriodSeconds: 20 }],
  ])('of a service chart refuses %s', (_, values) => {
    expect(refused('charts/merchants', values)).toMatch(/values don't meet the specifications of the schema/);
  });

  // extraEnv is rendered beside the chart's own variables: a name in both would be one variable set twice.
  it.each(serviceCharts())('of %s refuses in extraEnv every variable the chart sets itself', (service) => {
    const schema = readYaml<{
      properties: { extraEnv: { propertyNames: { not: { enum: string[] } } } };
    }>('charts', service, 'values.schema.json');
    const refusedNames = schema.properties.extraEnv.propertyNames.not.enum;
    const setByChart = ofKind<Workload>(renderServiceChart(service, 'default'), 'Deployment').flatMap(
      (deployment) =>
        (deployment.spec.template.spec.containers[0]!.env ?? []).map((variable) => variable.name),
    );
    expect(setByChart.filter((name) => !refusedNames.includes(name))).toEqual([]);
  });

  it('of the umbrella refuses a bad global value and, through it, a bad service value', () => {
    expect(refused(UMBRELLA, { global: { testMode: { enabled: 'yes' } } })).toMatch(/testMode/);
    expect(refused(UMBRELLA, { payments: { checkoutBaseUrl: 'pay.example.com' } })).toMatch(
      /checkoutBaseUrl/,
    );
    expect(
      refused(UMBRELLA, { gateway: { ingress: { enabled: true, hosts: [{ host: 'x', paths: [] }] } } }),
    ).toMatch(/paths/);
  });
});
