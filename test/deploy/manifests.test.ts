// The Kubernetes examples say what the docs say: the gateway is the pod's only way in (the backend declares no
// port), the calendar in the ConfigMap is a valid config, and the network policy admits the gateway's port to
// all and the admin port to the scraper only.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseConfig } from '../../src/config/load.js';
import { passthroughEnabled } from '../../src/config/schema.js';
import { ROOT } from '../helpers/serve-process.js';

const documents = (file: string) => parseAllDocuments(readFileSync(join(ROOT, 'deploy/kubernetes', file), 'utf8')).map((d) => d.toJS() as Record<string, any>);

describe('deploy/kubernetes/sidecar.yaml', () => {
  const docs = documents('sidecar.yaml');
  const deployment = docs.find((d) => d.kind === 'Deployment')!;
  const containers = deployment.spec.template.spec.containers as Record<string, any>[];

  it('exposes the gateway only: the backend container declares no port, the Service targets the gateway', () => {
    const backend = containers.find((c) => c.name === 'backend')!;
    expect(backend.ports).toBeUndefined();
    const gateway = containers.find((c) => c.name === 'dl-version-gateway')!;
    expect(gateway.ports.map((p: { containerPort: number }) => p.containerPort).sort()).toEqual([8080, 9090]);
    const service = docs.find((d) => d.kind === 'Service')!;
    expect(service.spec.ports.map((p: { targetPort: string }) => p.targetPort)).toEqual(['http']);
  });

  it('ships a calendar that validates, with pass-through on, in front of the backend on loopback', () => {
    const configMap = docs.find((d) => d.kind === 'ConfigMap')!;
    const { config } = parseConfig(parseAllDocuments(configMap.data['gateway.yaml'] as string)[0]!.toJS());
    expect(new URL(config.upstream.url).hostname).toBe('127.0.0.1');
    expect(passthroughEnabled(config)).toBe(true);
  });
});

describe('deploy/kubernetes/networkpolicy.yaml', () => {
  const [pod, standalone] = documents('networkpolicy.yaml');

  it('admits the gateway port from anywhere and the admin port from the scraper only, and nothing else', () => {
    expect(pod!.kind).toBe('NetworkPolicy');
    expect(pod!.spec.podSelector.matchLabels).toEqual(documents('sidecar.yaml').find((d) => d.kind === 'Deployment')!.spec.selector.matchLabels);
    expect(pod!.spec.policyTypes).toEqual(['Ingress']);
    const rules = pod!.spec.ingress as { from?: unknown[]; ports: { port: number }[] }[];
    expect(rules.flatMap((r) => r.ports.map((p) => p.port)).sort()).toEqual([8080, 9090]);
    const admin = rules.find((r) => r.ports.some((p) => p.port === 9090))!;
    expect(admin.from).toHaveLength(1);
    expect(admin.ports).toHaveLength(1);
  });

  it('in the two-Deployment layout, admits the backend port from the gateway\'s pods only', () => {
    const rules = standalone!.spec.ingress as { from: { podSelector: { matchLabels: Record<string, string> } }[]; ports: { port: number }[] }[];
    expect(rules).toHaveLength(1);
    expect(rules[0]!.from).toEqual([{ podSelector: { matchLabels: { app: 'dl-version-gateway' } } }]);
    expect(rules[0]!.ports.map((p) => p.port)).toEqual([8081]);
  });
});

describe('deploy/datalens-oss/compose.yaml', () => {
  // `!reset` is a Compose tag: read it as the value it resets to.
  const text = readFileSync(join(ROOT, 'deploy/datalens-oss/compose.yaml'), 'utf8');
  const compose = parseAllDocuments(text, { customTags: [{ tag: '!reset', resolve: () => [] }] })[0]!.toJS() as Record<string, any>;
  const gateway = compose.services['dl-version-gateway'];

  it('puts the gateway in front of the UI server in full mode, as kind datalens-oss, on the port the UI had', () => {
    expect(gateway.environment).toMatchObject({ UPSTREAM_KIND: 'datalens-oss', UPSTREAM_URL: 'http://ui:8080' });
    expect(compose.services.ui.ports).toEqual([]);
    expect(gateway.ports).toEqual(['${UI_PORT:-8080}:8080']);
  });

  it('gives settings the gateway takes: the environment over the shipped config validates as a datalens-oss upstream', () => {
    const { config } = parseConfig(parseAllDocuments(readFileSync(join(ROOT, 'config/gateway.yaml'), 'utf8'))[0]!.toJS(), gateway.environment);
    expect(config.upstream.kind).toBe('datalens-oss');
    expect(config.upstream.datalensOss.services).toEqual(['bi']);
    expect(passthroughEnabled(config)).toBe(true);
  });
});
