import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });

describe('the command line', () => {
  it('check-config prints the version calendar of a valid file', () => {
    const run = cli(['check-config', 'config/gateway.yaml']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/config\/gateway\.yaml: valid/);
    expect(run.stdout).toMatch(/v1 +2025-01-15 +2026-10-01 +2027-03-30 +(deprecated|sunset)/);
    expect(run.stdout).toMatch(/v2 +2026-10-01 +- +- +current/);
  });

  it('check-config exits non-zero with the key of the mistake', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dlgw-cli-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'lifecycle:\n  versions:\n    - version: 1\n      released: 2025-01-15\n      sunsett: 2026-01-01\n');
    const run = cli(['check-config', file]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/lifecycle\.versions\.0\.sunsett: unknown key/);
  });

  it('check-contract passes the shipped contract', () => {
    const run = cli(['check-contract']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/contract ok: versions 1, 2/);
  });

  it('translate prints the latest-version body of an old body, or the error', () => {
    const ok = cli(['translate', '--from', '1', '--method', 'getEntries', '--body', '{"ids":"ent_1","createdBy":"me"}']);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ method: 'getEntries', version: 2, body: { ids: ['ent_1'], createdBy: ['me'] } });
    const mapped = cli(['translate', '--from', '1', '--method', 'createReport', '--config', 'config/gateway.yaml', '--body', '{"key":"legacy/finance/q1","config":{}}']);
    expect(JSON.parse(mapped.stdout).body).toEqual({ workbookId: 'wb_demo_sandbox', legacyKey: 'legacy/finance/q1', config: {}, description: '' });
    const invalid = cli(['translate', '--from', '1', '--method', 'createReport', '--body', '{"config":{}}']);
    expect(invalid.status).toBe(1);
    expect(JSON.parse(invalid.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
  });

  it('serve starts on PORT with the embedded backend, says so, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line in: ${output}`)), 20_000);
        child.stdout.on('data', () => {
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (m) {
            clearTimeout(timer);
            resolve(m[1] as string);
          }
        });
      });
      expect(output).toMatch(/EMBEDDED reference backend/);
      expect(output).toMatch(/calendar: v1 /);
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      const ready = await fetch(`${url}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ready', backendVersion: 2 });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 40_000);
});
