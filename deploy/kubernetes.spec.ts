import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { QueueName } from '@sift/queue-contracts';
import { egressAllowsAddress, type EgressRule } from './support/egress-evaluation';
import {
  kubernetesRoot,
  kustomizationDirectories,
  listedManifests,
  missingResources,
  readKustomization,
  repositoryRoot,
  unlistedYamlFiles,
  validateManifest,
  type Manifest,
} from './support/kubernetes-manifests';

interface Container {
  name: string;
  env?: { name: string; value?: string; valueFrom?: { resourceFieldRef?: { resource: string; containerName?: string } } }[];
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string }; tcpSocket?: unknown; exec?: unknown };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; capabilities?: { drop?: string[] } };
}

interface PodSpec {
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  containers: Container[];
  initContainers?: Container[];
}

const base = readKustomization(join(kubernetesRoot, 'base'));
const baseManifests = listedManifests(base).map(({ manifest }) => manifest);
const ofKind = (kind: string) => baseManifests.filter((manifest) => manifest.kind === kind);
const named = (kind: string, name: string) => {
  const found = ofKind(kind).find((manifest) => manifest.metadata.name === name);
  if (!found) throw new Error(`k8s/base has no ${kind} ${name}`);
  return found;
};
const podSpecOf = (deployment: Manifest) => (deployment.spec as { template: { spec: PodSpec } }).template.spec;
const podLabelsOf = (deployment: Manifest) => (deployment.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;

/** Sift's processes: the gateway scales on CPU, each worker on its queue's waiting jobs. */
const WORKERS = [
  { component: 'extractor', queue: QueueName.Extract, threadVariable: 'EXTRACT_PARSE_THREADS' },
  { component: 'crawler', queue: QueueName.Crawl, threadVariable: 'CRAWL_EXTRACTION_THREADS' },
  { component: 'research', queue: QueueName.Research, threadVariable: undefined },
];
const PROCESSES = ['gateway', ...WORKERS.map((worker) => worker.component)];

describe('Kubernetes manifests (k8s/)', () => {
  describe.each(kustomizationDirectories().map((directory) => [relative(repositoryRoot, directory)]))('%s', (directory) => {
    const kustomization = readKustomization(join(repositoryRoot, directory));

    it('lists only files that exist and uses every YAML file in its folder', () => {
      expect(missingResources(kustomization)).toEqual([]);
      expect(unlistedYamlFiles(kustomization)).toEqual([]);
    });

    it('holds only manifests that match their Kubernetes (or KEDA) schema', () => {
      const manifests = listedManifests(kustomization);
      expect(manifests.length).toBeGreaterThan(0);
      for (const { file, manifest } of manifests) validateManifest(manifest, file);
    });
  });

  describe.each(PROCESSES)('the %s Deployment', (component) => {
    const deployment = named('Deployment', `sift-${component}`);
    const pod = podSpecOf(deployment);
    const container = pod.containers.find((candidate) => candidate.name === component) as Container;

    it('drains longer than the longest job (150 s) and runs as a non-root user without capabilities', () => {
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(150);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true });
      expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
      for (const each of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect(each.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
        expect(each.resources?.requests).toBeDefined();
        expect(each.resources?.limits?.memory).toBeDefined();
        expect(each.resources?.limits?.cpu).toBeDefined();
      }
    });

    it('is ready only while its dependencies answer (/health) and alive without asking them', () => {
      expect(container.readinessProbe?.httpGet?.path).toBe('/health');
      expect(container.livenessProbe).toBeDefined();
      // /health fails while Postgres or Redis is down: as a liveness probe it would restart every pod in an outage.
      expect(container.livenessProbe?.httpGet?.path).not.toBe('/health');
    });

    it('applies pending migrations before it starts', () => {
      expect(pod.initContainers?.map((init) => (init as unknown as { command: string[] }).command)).toContainEqual(['node', 'scripts/run.js', 'prisma/migrate.ts']);
    });

    it('has a disruption budget that still lets a node drain', () => {
      const budgets = ofKind('PodDisruptionBudget').filter((budget) => {
        const selector = (budget.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels;
        return Object.entries(selector).every(([key, value]) => podLabelsOf(deployment)[key] === value);
      });
      expect(budgets).toHaveLength(1);
      expect(budgets[0].spec).toMatchObject({ maxUnavailable: 1 });
    });
  });

  it('scales the gateway on CPU', () => {
    expect(named('HorizontalPodAutoscaler', 'sift-gateway').spec).toMatchObject({
      scaleTargetRef: { kind: 'Deployment', name: 'sift-gateway' },
      metrics: [{ type: 'Resource', resource: { name: 'cpu' } }],
    });
  });

  it.each(WORKERS)('scales the $component worker on the BullMQ wait list of queue "$queue"', ({ component, queue }) => {
    const prefix = named('ConfigMap', 'sift-config').data?.QUEUE_PREFIX;
    const scaler = named('ScaledObject', `sift-${component}`).spec as { scaleTargetRef: { name: string }; minReplicaCount: number; triggers: { type: string; metadata: Record<string, string> }[] };
    expect(scaler.scaleTargetRef.name).toBe(`sift-${component}`);
    expect(scaler.minReplicaCount).toBeGreaterThanOrEqual(1);
    // BullMQ keeps a queue's waiting jobs in the Redis list "<prefix>:<queue>:wait".
    expect(scaler.triggers).toEqual([{ type: 'redis', metadata: expect.objectContaining({ listName: `${prefix}:${queue}:wait`, addressFromEnv: 'REDIS_ADDRESS' }) }]);
  });

  it.each(WORKERS.filter((worker) => worker.threadVariable))('bounds the $component worker\'s threads by its CPU limit, not the node\'s cores', ({ component, threadVariable }) => {
    const container = podSpecOf(named('Deployment', `sift-${component}`)).containers[0];
    expect(container.env?.find((variable) => variable.name === threadVariable)?.valueFrom?.resourceFieldRef).toMatchObject({ resource: 'limits.cpu', containerName: component });
  });

  describe('the egress NetworkPolicy', () => {
    const policies = ofKind('NetworkPolicy');

    const rulesFor = (component: string): EgressRule[] => {
      const labels = podLabelsOf(named('Deployment', `sift-${component}`));
      const selecting = policies.filter((policy) => {
        const selector = (policy.spec as { podSelector: { matchExpressions?: { key: string; operator: string; values: string[] }[]; matchLabels?: Record<string, string> } }).podSelector;
        const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
        const byExpressions = (selector.matchExpressions ?? []).every((expression) => expression.operator === 'In' && expression.values.includes(labels[expression.key]));
        return byLabels && byExpressions && ((policy.spec as { policyTypes: string[] }).policyTypes ?? []).includes('Egress');
      });
      expect(selecting.length).toBeGreaterThan(0);
      return selecting.flatMap((policy) => (policy.spec as { egress?: EgressRule[] }).egress ?? []);
    };

    const PRIVATE_ADDRESSES = [
      '10.0.0.1', '10.255.255.254', '172.16.0.1', '172.31.255.254', '192.168.0.1', '100.64.0.1', '127.0.0.1',
      // Cloud metadata services: AWS/GCP/Azure, and AWS's IPv6 one.
      '169.254.169.254', '169.254.0.1', 'fd00:ec2::254', 'fc00::1', 'fe80::1', '::1', '::ffff:10.0.0.1',
    ];

    it.each(PROCESSES)('keeps %s pods from private ranges and the metadata address, but not from the public internet', (component) => {
      const rules = rulesFor(component);
      for (const address of PRIVATE_ADDRESSES) expect([address, egressAllowsAddress(rules, address)]).toEqual([address, false]);
      for (const address of ['93.184.215.14', '1.1.1.1', '2606:4700:4700::1111']) expect([address, egressAllowsAddress(rules, address)]).toEqual([address, true]);
    });

    it.each(PROCESSES)('lets %s pods reach DNS, Postgres, Redis and SearXNG', (component) => {
      const rules = rulesFor(component);
      const ports = (rule: EgressRule) => (rule.ports ?? []).map((port) => port.port);
      expect(rules.some((rule) => ports(rule).includes(53))).toBe(true);
      for (const [name, port] of [['postgres', 5432], ['redis', 6379], ['searxng', 8080]] as const) {
        const rule = rules.find((candidate) => ports(candidate).includes(port));
        expect(rule?.to).toEqual([{ podSelector: { matchLabels: { 'app.kubernetes.io/name': name } } }]);
      }
    });
  });

  describe('the optional model servers (k8s/components/models)', () => {
    const component = readKustomization(join(kubernetesRoot, 'components', 'models'));
    const manifests = listedManifests(component).map(({ manifest }) => manifest);
    const servers = manifests.filter((manifest) => manifest.kind === 'Deployment');
    const services = manifests.filter((manifest) => manifest.kind === 'Service');
    const policies = manifests.filter((manifest) => manifest.kind === 'NetworkPolicy');
    const egressOf = (policy: Manifest) => (policy.spec as { egress?: EgressRule[] }).egress ?? [];
    const modelsPolicy = policies.find((policy) => policy.metadata.name === 'sift-models') as Manifest;

    it('is a kustomize Component an overlay adds, patching Sift\'s settings to the servers\' Services', () => {
      expect(readFileSync(join(component.directory, 'kustomization.yaml'), 'utf8')).toMatch(/^kind: Component$/m);
      const config = manifests.find((manifest) => manifest.kind === 'ConfigMap' && manifest.metadata.name === 'sift-config');
      const port = (name: string) => (services.find((service) => service.metadata.name === name)?.spec as { ports: { port: number }[] }).ports[0].port;
      expect(config?.data).toMatchObject({
        EMBEDDINGS_BASE_URL: `http://sift-embeddings:${port('sift-embeddings')}/v1`,
        EMBEDDINGS_MODEL: 'BAAI/bge-small-en-v1.5',
        RERANK_BASE_URL: `http://sift-rerank:${port('sift-rerank')}`,
      });
    });

    it('runs text-embeddings-inference on CPU with the named models, non-root, with bounded resources', () => {
      const models = servers.map((server) => {
        const pod = podSpecOf(server);
        expect(pod.securityContext).toMatchObject({ runAsNonRoot: true });
        const [container] = pod.containers as (Container & { image: string; args: string[] })[];
        expect(container.image).toMatch(/^ghcr\.io\/huggingface\/text-embeddings-inference:cpu-/);
        expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
        expect(container.resources?.limits?.memory).toBeDefined();
        expect(container.readinessProbe?.httpGet?.path).toBe('/health');
        return container.args[container.args.indexOf('--model-id') + 1];
      });
      expect(models.sort()).toEqual(['BAAI/bge-reranker-base', 'BAAI/bge-small-en-v1.5']);
    });

    it.each(PROCESSES)('lets %s pods reach the model servers\' port, which the base\'s policy alone forbids', (processName) => {
      const labels = podLabelsOf(named('Deployment', `sift-${processName}`));
      const reaching = policies.filter((policy) => {
        const selector = (policy.spec as { podSelector: { matchExpressions?: { key: string; values: string[] }[] } }).podSelector;
        return (selector.matchExpressions ?? []).every((expression) => expression.values.includes(labels[expression.key]));
      });
      const rules = reaching.flatMap(egressOf);
      expect(rules).toContainEqual({ to: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'text-embeddings-inference' } } }], ports: [{ protocol: 'TCP', port: 8080 }] });
    });

    it('lets only Sift\'s pods in, and the servers out to DNS and the public internet, never a private range', () => {
      expect(podLabelsOf(servers[0])['app.kubernetes.io/name']).toBe((modelsPolicy.spec as { podSelector: { matchLabels: Record<string, string> } }).podSelector.matchLabels['app.kubernetes.io/name']);
      expect((modelsPolicy.spec as { ingress: unknown[] }).ingress).toEqual([{ from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'sift' } } }], ports: [{ protocol: 'TCP', port: 8080 }] }]);
      const rules = egressOf(modelsPolicy);
      for (const address of ['10.0.0.1', '172.16.0.1', '192.168.0.1', '169.254.169.254', '127.0.0.1', 'fd00:ec2::254']) expect([address, egressAllowsAddress(rules, address)]).toEqual([address, false]);
      for (const address of ['18.164.174.23', '2606:4700:4700::1111']) expect([address, egressAllowsAddress(rules, address)]).toEqual([address, true]);
    });
  });

  it('keeps SearXNG\'s settings the same as compose\'s', () => {
    expect(readFileSync(join(kubernetesRoot, 'base', 'searxng', 'settings.yml'), 'utf8')).toBe(readFileSync(join(repositoryRoot, 'docker', 'searxng', 'settings.yml'), 'utf8'));
  });

  it('sets an Ingress read timeout above the longest request (150 s)', () => {
    const overlay = readKustomization(join(kubernetesRoot, 'overlays', 'example'));
    const ingress = listedManifests(overlay).find(({ manifest }) => manifest.kind === 'Ingress')?.manifest;
    expect(Number(ingress?.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThan(150);
  });
});
