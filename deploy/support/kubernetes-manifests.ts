import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { readYamlDocuments, type YamlObject } from './yaml-documents';

export const repositoryRoot = join(__dirname, '..', '..');
export const kubernetesRoot = join(repositoryRoot, 'k8s');

interface ValidatingModel {
  validate(): void;
}

/** The kinds Sift's manifests use, each with the model that checks it against its OpenAPI schema. */
const MODELS: Record<string, new (data: never) => ValidatingModel> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

export interface Manifest extends YamlObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: YamlObject;
  data?: Record<string, string>;
}

/** Throws, naming the manifest, when its kind is unknown here or it does not match its schema. */
export function validateManifest(manifest: Manifest, source: string): void {
  const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  const name = `${source}: ${manifest.kind} ${manifest.metadata?.name}`;
  if (!Model) throw new Error(`${name}: no schema for ${manifest.apiVersion}/${manifest.kind}; add its model to deploy/support`);
  try {
    new Model(manifest as never).validate();
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`);
  }
}

export interface Kustomization {
  directory: string;
  resources: string[];
  patches?: { path: string }[];
  configMapGenerator?: { name: string; files?: string[] }[];
}

export function readKustomization(directory: string): Kustomization {
  const [kustomization] = readYamlDocuments(join(directory, 'kustomization.yaml'));
  return { ...(kustomization as unknown as Kustomization), directory };
}

/** The manifests a kustomization lists itself (not those of the bases it includes), with the file each came from. */
export function listedManifests(kustomization: Kustomization): { file: string; manifest: Manifest }[] {
  const files = [...kustomization.resources, ...(kustomization.patches ?? []).map((patch) => patch.path)]
    .map((entry) => join(kustomization.directory, entry))
    .filter((path) => !existsSync(join(path, 'kustomization.yaml')));
  return files.flatMap((file) => readYamlDocuments(file).map((manifest) => ({ file: relative(repositoryRoot, file), manifest: manifest as Manifest })));
}

/** Every directory under k8s/ that holds a kustomization.yaml. */
export function kustomizationDirectories(root = kubernetesRoot): string[] {
  const found: string[] = [];
  const visit = (directory: string) => {
    if (existsSync(join(directory, 'kustomization.yaml'))) found.push(directory);
    for (const entry of readdirSync(directory, { withFileTypes: true })) if (entry.isDirectory()) visit(join(directory, entry.name));
  };
  visit(root);
  return found;
}

/** Resources of a kustomization that point at a missing file or folder. */
export function missingResources(kustomization: Kustomization): string[] {
  const paths = [
    ...kustomization.resources,
    ...(kustomization.patches ?? []).map((patch) => patch.path),
    ...(kustomization.configMapGenerator ?? []).flatMap((generator) => generator.files ?? []),
  ];
  return paths.filter((entry) => !existsSync(join(kustomization.directory, entry)));
}

/** YAML files in a kustomization's folder that it does not use: a manifest that would silently never be applied. */
export function unlistedYamlFiles(kustomization: Kustomization): string[] {
  const used = new Set([
    'kustomization.yaml',
    ...kustomization.resources,
    ...(kustomization.patches ?? []).map((patch) => patch.path),
    ...(kustomization.configMapGenerator ?? []).flatMap((generator) => generator.files ?? []),
  ].map((entry) => join(kustomization.directory, entry)));
  return readdirSync(kustomization.directory)
    .filter((entry) => /\.ya?ml$/.test(entry))
    .map((entry) => join(kustomization.directory, entry))
    .filter((path) => !used.has(path))
    .map((path) => relative(dirname(kustomization.directory), path));
}
