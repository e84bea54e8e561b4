import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from './support/kubernetes-manifests';
import { readYamlDocuments } from './support/yaml-documents';

/** The Dockerfile's stages: each FROM line and the instructions under it (continuation lines joined). */
function dockerfileStages(text: string): { from: string; instructions: string[] }[] {
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'));
  const stages: { from: string; instructions: string[] }[] = [];
  for (const instruction of instructions) {
    if (/^FROM\s/i.test(instruction)) stages.push({ from: instruction, instructions: [] });
    else stages.at(-1)?.instructions.push(instruction);
  }
  return stages;
}

const dockerfile = readFileSync(join(repositoryRoot, 'docker', 'Dockerfile'), 'utf8');
const stages = dockerfileStages(dockerfile);
const finalStage = stages.at(-1) as { from: string; instructions: string[] };

describe('docker/Dockerfile', () => {
  it('builds on a supported Node LTS (22 or 24)', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:(22|24)-bookworm-slim$/m);
    for (const stage of stages) expect(stage.from).toMatch(/^FROM \$\{NODE_IMAGE\}/);
  });

  it('compiles at build time and starts the compiled code', () => {
    expect(stages[0].instructions).toContain('RUN node scripts/prisma-generate.js && node scripts/build.js');
    expect(finalStage.instructions).toContain('COPY --from=build /app/dist ./dist');
    expect(finalStage.instructions).toContain('CMD ["node", "scripts/run.js", "apps/gateway/src/main.ts"]');
  });

  it('puts production dependencies only into the final image', () => {
    const dependencyStage = stages.find((stage) => stage.from.endsWith('AS production-dependencies'));
    expect(dependencyStage?.instructions.some((instruction) => instruction.startsWith('RUN npm ci --omit=dev'))).toBe(true);
    expect(finalStage.instructions).toContain('COPY --from=production-dependencies /app/node_modules ./node_modules');
    // No later install may bring devDependencies back.
    expect(finalStage.instructions.filter((instruction) => /\bnpm (ci|install|i)\b/.test(instruction))).toEqual([]);
  });

  it('ships every patched production dependency (patches/) as patched, and no patched development dependency', () => {
    // patch-package runs in the build stage's install (postinstall); the production dependencies are installed
    // without scripts, so the final image takes each patched package from the build stage. A patched development
    // dependency (a test's reference) has no place in the image. A patched package may be a dependency's own
    // (redis-parser, ioredis'): the lockfile says whether the production install has it.
    const patched = readdirSync(join(repositoryRoot, 'patches'))
      .filter((file) => file.endsWith('.patch'))
      .map((file) => file.replace(/\+[^+]+\.patch$/, '').replace(/\+/g, '/'));
    const { packages } = JSON.parse(readFileSync(join(repositoryRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean } | undefined> };
    const locked = patched.map((name) => packages[`node_modules/${name}`]);
    expect(locked.every((entry) => entry !== undefined)).toBe(true);
    const production = patched.filter((_name, index) => locked[index]?.dev !== true);
    expect(production.length).toBeGreaterThan(0);
    const buildStage = stages[0].instructions;
    expect(buildStage.indexOf('COPY patches ./patches')).toBeGreaterThanOrEqual(0);
    expect(buildStage.indexOf('COPY patches ./patches')).toBeLessThan(buildStage.findIndex((instruction) => instruction.startsWith('RUN npm ci')));
    for (const name of patched) {
      const copied = `COPY --from=build /app/node_modules/${name} ./node_modules/${name}`;
      if (production.includes(name)) expect(finalStage.instructions).toContain(copied);
      else expect(finalStage.instructions).not.toContain(copied);
    }
    const ignored = readFileSync(join(repositoryRoot, '.dockerignore'), 'utf8').split('\n').map((line) => line.trim());
    expect(ignored).not.toContain('patches');
  });

  it('runs as a numeric non-root user with Debian\'s Chromium', () => {
    const user = finalStage.instructions.filter((instruction) => instruction.startsWith('USER ')).at(-1);
    expect(user).toMatch(/^USER [1-9]\d*(:\d+)?$/);
    expect(finalStage.instructions.some((instruction) => /apt-get install .*\bchromium\b/.test(instruction))).toBe(true);
  });

  it('keeps node_modules, .git and .env out of the build context', () => {
    const ignored = readFileSync(join(repositoryRoot, '.dockerignore'), 'utf8').split('\n').map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '.git', '.env']));
  });
});

describe('docker/searxng/settings.yml', () => {
  const [settings] = readYamlDocuments(join(repositoryRoot, 'docker', 'searxng', 'settings.yml')) as { search: { formats: string[] }; server: { limiter: boolean } }[];

  it('answers Sift in JSON and does not rate-limit it', () => {
    expect(settings.search.formats).toContain('json');
    expect(settings.server.limiter).toBe(false);
  });
});
