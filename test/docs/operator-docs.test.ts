// The operator's documents tell the truth: README's config table is the schema (keys and defaults, both ways),
// its CLI table is the command list, the environment variables are named, the Dockerfile and the README's
// docker run do what they say, the sidecar manifest validates, and no document cites a file outside the repository.

import { execFileSync } from 'node:child_process';
import { type Dirent, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { COMMAND_NAMES } from '../../src/cli/commands.js';
import { validateConfigFile } from '../../src/cli/validate-config.js';
import { ConfigError, ENV_OVERRIDES, parseConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { shippedContract } from '../../src/contract/index.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import { openApiFor } from '../../src/core/derive/openapi.js';
import { ROOT, tempDir } from '../helpers/serve-process.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Folders .gitignore keeps out of the repository, and git's own. */
const IGNORED = new Set(['.git', 'node_modules', 'dist', 'coverage', 'test-artifacts', 'reports', '.stryker-tmp']);
/** The repository's files: git's list, or (in a copy without git, such as the one-folder test's) the tree less what git ignores. */
function projectFiles(): string[] {
  if (existsSync(join(ROOT, '.git'))) {
    return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  }
  return (readdirSync(ROOT, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(ROOT, join(d.parentPath, d.name)))
    .filter((f) => !IGNORED.has(f.split(sep)[0]!) && !f.endsWith('.cpuprofile'));
}
const readme = read('README.md');
const operations = read('docs/operations.md');

/** The rows of the markdown table that follows `heading` (cells split, header and rule dropped). */
function tableAfter(text: string, heading: string): string[][] {
  const start = text.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim()));
  }
  return rows.slice(2);
}
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

/** Every key of the config schema, as README writes them: `section.key`, and `lifecycle.versions[].key`. */
function schemaKeys(): string[] {
  const unwrap = (t: any): any => {
    while (t && !t.shape && t._zod?.def?.innerType) t = t._zod.def.innerType;
    return t;
  };
  const keys: string[] = [];
  // Nested objects (cache.redis) are documented key by key.
  const walk = (prefix: string, schema: any): void => {
    for (const [key, inner] of Object.entries(unwrap(schema).shape)) {
      const shape = unwrap(inner)?.shape;
      if (shape && prefix) walk(`${prefix}.${key}`, inner);
      else if (shape && !prefix) walk(key, inner);
      else keys.push(prefix ? `${prefix}.${key}` : key);
    }
  };
  walk('', configSchema);
  const versions = unwrap(unwrap(configSchema.shape.lifecycle).shape.versions);
  for (const key of Object.keys(unwrap(versions._zod.def.element).shape)) keys.push(`lifecycle.versions[].${key}`);
  return keys;
}

/** README's config table: key → its default cell's value (when the row gives one per key). */
function documentedKeys(): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const [keysCell, defaultsCell] of tableAfter(readme, '## Configuration')) {
    let prefix = '';
    const keys = ticked(keysCell as string).map((k) => {
      if (k.includes('.')) {
        prefix = k.slice(0, k.lastIndexOf('.') + 1);
        return k;
      }
      return prefix + k;
    });
    const defaults = ticked(defaultsCell as string);
    keys.forEach((k, i) => out.set(k === 'lifecycle.versions[]' ? 'lifecycle.versions' : k, defaults.length === keys.length ? defaults[i] : undefined));
  }
  return out;
}

describe("README's configuration table", () => {
  const documented = documentedKeys();
  // Version plan keys are named in the lifecycle.versions row's text.
  const versionRow = tableAfter(readme, '## Configuration').find((r) => ticked(r[0] as string).includes('lifecycle.versions[]'))!.join(' ');

  it('lists every key of the schema', () => {
    for (const key of schemaKeys()) {
      const plan = /^lifecycle\.versions\[\]\.(.*)$/.exec(key);
      if (plan) expect(documented.has(key) || versionRow.includes(`\`${plan[1]}\``), key).toBe(true);
      else expect([...documented.keys()], key).toContain(key);
    }
  });

  it('lists no key the schema does not have', () => {
    const known = new Set([...schemaKeys(), 'lifecycle.versions']);
    for (const key of documented.keys()) expect(known, key).toContain(key);
  });

  it("gives the defaults the schema has", () => {
    expect([...documented.values()].filter((v) => v !== undefined).length).toBeGreaterThan(25);
    const minimal = { lifecycle: { versions: [{ version: 1, released: '2025-01-01' }] } };
    const bare = parseConfig(minimal).config;
    // An optional section's own defaults show once the section is there.
    const withOptional = parseConfig({ ...minimal, cache: { redis: { url: 'redis://127.0.0.1:6379' } } }).config;
    const at = (config: unknown, key: string): unknown => key.split('.').reduce<any>((node, part) => node?.[part], config);
    for (const [key, shown] of documented) {
      if (shown === undefined || key.includes('[]')) continue;
      if (shown === 'none' || shown === 'required') {
        expect(at(bare, key), key).toBeUndefined();
        continue;
      }
      const actual = at(withOptional, key);
      expect(actual, key).toBeDefined();
      expect(shown, key).toBe(typeof actual === 'object' ? JSON.stringify(actual) : String(actual));
    }
  });

  it('names every environment variable serve reads', () => {
    for (const name of [...Object.keys(ENV_OVERRIDES), 'ADMIN_TOKEN', 'ADMIN_TOKEN_FILE', 'LOG_LEVEL', 'GATEWAY_CONFIG']) {
      expect(readme, name).toContain(`\`${name}\``);
    }
  });
});

describe("README's command line", () => {
  it('has one row per command, and the exit codes', () => {
    const rows = tableAfter(readme, '## Command line').map((r) => (ticked(r[0] as string)[0] as string).split(' ')[0]);
    expect(rows).toEqual(COMMAND_NAMES);
    expect(readme).toMatch(/Exit status: \*\*0\*\* ok; \*\*1\*\* a check failed .*\*\*2\*\* bad\narguments/s);
  });
});

describe('deployment', () => {
  it('the Dockerfile sets no PORT, which would override listen.port of a mounted config', () => {
    const env = read('Dockerfile')
      .replace(/\\\n/g, ' ')
      .split('\n')
      .filter((l) => /^ENV\s/.test(l));
    expect(env.length).toBeGreaterThan(0);
    for (const line of env) expect(line).not.toMatch(/\bPORT=/);
    expect(read('Dockerfile')).toMatch(/HEALTHCHECK[\s\S]*dist\/cli\/healthcheck\.js/);
  });

  it("the README's docker run mounts a folder and points GATEWAY_CONFIG into it", () => {
    const run = /docker run[^`]*?dl-version-gateway\n/s.exec(readme)![0].replace(/\\\n/g, ' ');
    const [, source, target] = /-v (\S+?):(\S+?)(:ro)? /.exec(run)!;
    expect(source).not.toMatch(/\.ya?ml$/);
    const config = /GATEWAY_CONFIG=(\S+)/.exec(run)![1] as string;
    expect(config.startsWith(`${target}/`)).toBe(true);
  });

  it('the Kubernetes sidecar validates with its environment, and needs its admin token', () => {
    const docs = parseAllDocuments(read('deploy/kubernetes/sidecar.yaml')).map((d) => d.toJS() as any);
    const configMap = docs.find((d) => d.kind === 'ConfigMap');
    const container = docs.find((d) => d.kind === 'Deployment').spec.template.spec.containers.find((c: any) => c.name === 'dl-version-gateway');
    const env: Record<string, string> = Object.fromEntries(container.env.map((e: any) => [e.name, e.value]));
    const dir = tempDir('dlgw-sidecar-');
    const configPath = join(dir, 'gateway.yaml');
    writeFileSync(configPath, configMap.data['gateway.yaml']);
    writeFileSync(join(dir, 'token'), 'a-token\n');
    expect(env.ADMIN_TOKEN_FILE).toBeDefined();
    const { config, adminToken } = validateConfigFile(configPath, { ...env, GATEWAY_CONFIG: configPath, ADMIN_TOKEN_FILE: join(dir, 'token') });
    expect(config.admin.host).toBe('0.0.0.0');
    expect(adminToken).toBe('a-token');
    expect(() => validateConfigFile(configPath, { ...env, ADMIN_TOKEN_FILE: '' })).toThrow(ConfigError);
  });
});

describe('the documents', () => {
  it('say how to read the JSON logs (pino-pretty), and that log lines carry the pid', () => {
    expect(operations).toMatch(/pino-pretty/);
    expect(operations).toMatch(/`pid`/);
  });

  it('document the readiness contract: path, timeout, version check', () => {
    for (const key of ['readiness.path', 'readiness.timeoutMs', 'readiness.checkVersion', '{"apiVersion": N}']) expect(operations).toContain(key);
  });

  it('say that v1 pages start at 0, in the README and in the v1 OpenAPI document', () => {
    expect(readme).toMatch(/v1 `getEntries` numbers its pages from 0/);
    const contract = loadContract(shippedContract);
    const schema = (openApiFor(contract, 1, { deprecated: false }) as any).paths['/rpc/getEntries'].post.requestBody.content['application/json'].schema;
    expect(schema.properties.page.description).toMatch(/from 0/);
  });

  it('cite no file outside the repository', () => {
    const files = projectFiles()
      .filter((f) => f && !f.startsWith('test/docs/') && /\.(md|ts|mjs|js|ya?ml|json)$|Dockerfile$/.test(f) && f !== 'package-lock.json');
    const outside = ['DESIGN', 'STYLE', 'NOTES-node-proxy'].map((n) => `${n}.md`);
    for (const file of files) {
      const text = read(file);
      for (const name of outside) expect(text.includes(name), `${file} cites ${name}`).toBe(false);
    }
  });
});
