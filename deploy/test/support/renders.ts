import { readdirSync } from 'node:fs';

import { isObject, readYaml, repoPath } from './repo';
import type { Json } from './repo';
import { helmTemplate } from './tools';
import type { Manifest, RenderOptions } from './tools';

export const UMBRELLA = 'charts/sika';
export const LIBRARY = 'charts/sika-lib';
export const PRODUCTION_VALUES = 'charts/sika/values-production.yaml';
export const DEV_VALUES = 'charts/sika/values-dev.yaml';
/** The release name of the dev profile: the dev Secrets of k8s/overlays/dev are named after it. */
export const RELEASE = 'sika';

/** The service charts: every folder of charts/ but the umbrella and the library. */
export function serviceCharts(): string[] {
  return readdirSync(repoPath('charts'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'sika' && entry.name !== 'sika-lib')
    .map((entry) => entry.name)
    .sort();
}

/**
 * A service chart's production-like values on its own: the umbrella's production file reduced to the
 * chart's section plus `global`, as the umbrella would hand them down.
 */
export function productionValuesFor(service: string): Json {
  const production = readYaml<Json>(PRODUCTION_VALUES);
  const own = isObject(production[service]) ? production[service] : {};
  return { ...own, global: production.global };
}

const cache = new Map<string, Manifest[]>();

function memo(key: string, chart: string, options: RenderOptions): Manifest[] {
  let manifests = cache.get(key);
  if (manifests === undefined) {
    manifests = helmTemplate(chart, { release: RELEASE, ...options });
    cache.set(key, manifests);
  }
  return manifests;
}

export type UmbrellaFlavour = 'default' | 'production' | 'dev';

/** The umbrella chart rendered with its default values, the production-like file or the dev file. */
export function renderUmbrella(flavour: UmbrellaFlavour): Manifest[] {
  const valuesFiles = { default: [], production: [PRODUCTION_VALUES], dev: [DEV_VALUES] }[flavour];
  return memo(`umbrella:${flavour}`, UMBRELLA, { valuesFiles });
}

export function renderServiceChart(service: string, flavour: 'default' | 'production'): Manifest[] {
  const options = flavour === 'default' ? {} : { values: productionValuesFor(service) };
  return memo(`${service}:${flavour}`, `charts/${service}`, options);
}
