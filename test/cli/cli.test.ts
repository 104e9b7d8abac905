import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, runCli } from '../../src/cli/commands.js';
import { ENV_OVERRIDES } from '../../src/config/load.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { REPORT_CONTENT, REPORT_DESCRIPTION } from '../helpers/head-shapes.js';

const root = new URL('../..', import.meta.url).pathname;
/** The environment without the overrides serve and check-config read, so the host's own settings do not leak in. */
const cleanEnv = () => {
  const env = { ...process.env };
  for (const name of [...Object.keys(ENV_OVERRIDES), 'ADMIN_TOKEN', 'ADMIN_TOKEN_FILE', 'GATEWAY_CONFIG', 'LOG_LEVEL']) {
    delete env[name];
  }
  return env;
};
const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: root,
    env: { ...cleanEnv(), ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
/** Runs the command line in this process (with `env` over the clean environment), capturing what it prints. */
async function inProcess(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const saved = process.env;
  process.env = { ...cleanEnv(), ...env };
  let out = '';
  let err = '';
  try {
    const code = await runCli(argv, { out: (l) => (out += `${l}\n`), err: (l) => (err += `${l}\n`) });
    return { code, out, err };
  } finally {
    process.env = saved;
  }
}
const VERSION = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const COMMANDS = ['serve', 'backend', 'check-config', 'check-contract', 'translate', 'nginx-front', 'impact'];

describe('the command line', () => {
  it('nginx-front prints a server block for a config with a real upstream, refuses the embedded one, and checks its arguments', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dlgw-cli-'));
    const file = join(dir, 'front.yaml');
    writeFileSync(file, readFileSync(join(root, 'config/gateway.yaml'), 'utf8').replace('url: embedded', 'url: http://bi-backend:8080'));
    const run = await inProcess(['nginx-front', '--config', file, '--gateway', 'http://gateway:8080', '--listen', '8000']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/server bi-backend:8080;/);
    expect(run.out).toMatch(/server gateway:8080;/);
    expect(run.out).toMatch(/listen 8000;/);
    const embedded = await inProcess(['nginx-front', '--config', join(root, 'config/gateway.yaml')]);
    expect(embedded.code).toBe(1);
    expect(embedded.err).toMatch(/upstream\.url is "embedded"/);
    const bad = await inProcess(['nginx-front', '--config', file, '--gateway', 'ftp://x/y']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--gateway: "ftp:\/\/x\/y" is not an http\(s\) origin/);
  });

  it('check-config prints the version calendar of a valid file', async () => {
    const run = await inProcess(['check-config', join(root, 'config/gateway.yaml')]);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/config\/gateway\.yaml: valid/);
    // The shipped calendar: v1 released 2026-01-22, deprecated by v2 on 2026-06-11, served a year more.
    expect(run.out).toMatch(/v1 +2026-01-22 +2026-06-11 +2027-06-11 +(deprecated|sunset)/);
    expect(run.out).toMatch(new RegExp(`v${HEAD} +\\d{4}-\\d{2}-\\d{2} +- +- +current`));
  });

  it('check-config exits non-zero with the key of the mistake', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dlgw-cli-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'lifecycle:\n  versions:\n    - version: 1\n      released: 2025-01-15\n      sunsett: 2026-01-01\n');
    const run = await inProcess(['check-config', file]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/lifecycle\.versions\.0\.sunsett: unknown key/);
  });

  it('check-contract passes the shipped contract', async () => {
    const run = await inProcess(['check-contract']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/contract ok: versions 1, 2/);
  });

  it('translate prints the latest-version body of an old body, or the error', async () => {
    const ok = await inProcess(['translate', '--from', '1', '--method', 'getEntries', '--body', '{"ids":"ent_1","createdBy":"me"}']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toEqual({ method: 'getEntries', version: HEAD, body: { ids: ['ent_1'], createdBy: ['me'], pageSize: 100 } });
    const mapped = await inProcess(['translate', '--from', '1', '--method', 'createReport', '--config', join(root, 'config/gateway.yaml'), '--body', '{"key":"legacy/finance/q1","config":{}}']);
    expect(JSON.parse(mapped.out).body).toEqual({ workbookId: 'wb_demo_sandbox', legacyKey: 'legacy/finance/q1', [REPORT_CONTENT]: {}, [REPORT_DESCRIPTION]: '' });
    const invalid = await inProcess(['translate', '--from', '1', '--method', 'createReport', '--body', '{"config":{}}']);
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.err)).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
  });

  it('serve starts on PORT with the embedded backend, says so, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
      cwd: root,
      // Both listeners on free ports: the shipped file's admin port (9090) may be taken on this host.
      env: { ...cleanEnv(), PORT: '0', HOST: '127.0.0.1', ADMIN_PORT: '0', LOG_LEVEL: 'info' },
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
          // The calendar lines follow the listening line; a pipe may deliver them in a later chunk.
          if (m && /calendar: v2 /.test(output)) {
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
      expect(await ready.json()).toEqual({ status: 'ready', backendVersion: HEAD });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 40_000);

  it('answers --help and --version on every command without running it, exit 0', async () => {
    expect(COMMAND_NAMES).toEqual(COMMANDS);
    for (const command of COMMANDS) {
      const help = await inProcess([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.out, command).toMatch(new RegExp(`^usage: dl-version-gateway ${command}`));
      expect(help.out, command).not.toMatch(/listening on|: valid\n|contract ok/);
      const version = await inProcess([command, '--version']);
      expect(version, command).toEqual({ code: 0, out: `dl-version-gateway ${VERSION}\n`, err: '' });
    }
    // And through the executable, once for a command that would otherwise start a server.
    const real = cli(['serve', '--help'], { PORT: '0', ADMIN_PORT: '0' });
    expect(real.status).toBe(0);
    expect(real.stdout).toMatch(/^usage: dl-version-gateway serve/);
  });

  it('lists every environment variable serve reads in its help, and the exit codes in the general usage', async () => {
    const help = (await inProcess(['serve', '--help'])).out;
    // Every override the loader reads (a new one fails here until the help names it), and the other variables.
    for (const name of [...Object.keys(ENV_OVERRIDES), 'GATEWAY_CONFIG', 'ADMIN_TOKEN', 'ADMIN_TOKEN_FILE', 'LOG_LEVEL']) {
      expect(help, name).toMatch(new RegExp(`\\b${name}\\b`));
    }
    const usage = await inProcess(['--help']);
    expect(usage.code).toBe(0);
    expect(usage.out).toMatch(/exit status: 0 ok, 1 a check failed, 2 bad arguments/);
    // check-config says 1 for any file serve would refuse, an unreadable one included (it exits so).
    expect((await inProcess(['check-config', '--help'])).out).toMatch(/1 it would not \(an unreadable file too\)/);
    expect((await inProcess(['check-config', join(tmpdir(), 'no-such-gateway.yaml')])).code).toBe(1);
    expect((await inProcess(['--version'])).out).toBe(`dl-version-gateway ${VERSION}\n`);
  });

  it('refuses bad arguments with one line naming them and exit 2', async () => {
    const unknown = await inProcess(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^dl-version-gateway: unknown command "frobnicate"\n/);
    const noValue = await inProcess(['serve', '--config']);
    expect(noValue).toMatchObject({ code: 2, out: '' });
    expect(noValue.err).toMatch(/^dl-version-gateway serve: Option '--config <value>' argument missing\n/);
    const noFrom = await inProcess(['translate', '--method', 'getEntries', '--body', '{}']);
    expect(noFrom.code).toBe(2);
    expect(noFrom.err).toMatch(/^dl-version-gateway translate: --from N is required/);
    const badFrom = await inProcess(['translate', '--from', 'two', '--method', 'getEntries', '--body', '{}']);
    expect(badFrom.code).toBe(2);
    expect(badFrom.err).toMatch(/--from: "two" is not an API version/);
    const noMethod = await inProcess(['translate', '--from', '1', '--body', '{}']);
    expect(noMethod.err).toMatch(/--method M is required/);
    const extra = await inProcess(['check-contract', 'extra']);
    expect(extra.code).toBe(2);
    expect(extra.err).toMatch(/unexpected argument "extra"/);
    const unknownOption = await inProcess(['check-config', '--strict']);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.err).toMatch(/Unknown option '--strict'/);
    // Through the executable too: no stack trace, exit 2; and check-config's exit 1 as CI sees it.
    const badFile = join(mkdtempSync(join(tmpdir(), 'dlgw-cli-')), 'bad.yaml');
    writeFileSync(badFile, 'lifecycle: {}\n');
    expect(cli(['check-config', badFile]).status).toBe(1);
    const real = cli(['translate', '--method', 'getEntries']);
    expect(real.status).toBe(2);
    expect(real.stderr).toBe("dl-version-gateway translate: --from N is required (the API version of the body)\nRun 'dl-version-gateway translate --help' for usage.\n");
  });

  it('translate reads config/gateway.yaml by default, and names an unknown version', async () => {
    const mapped = await inProcess(['translate', '--from', '1', '--method', 'createReport', '--body', '{"key":"legacy/finance/q1","config":{}}'], {});
    expect(mapped.code).toBe(0);
    expect(JSON.parse(mapped.out).body).toMatchObject({ workbookId: 'wb_demo_sandbox' });
    const unknown = await inProcess(['translate', '--from', String(HEAD + 1), '--method', 'getEntries', '--body', '{}']);
    expect(unknown).toEqual({ code: 2, out: '', err: `API version ${HEAD + 1} does not exist (versions ${VERSIONS.join(', ')})\n` });
  });

  it('check-config applies the environment serve would, and refuses a calendar serve would refuse', async () => {
    const run = await inProcess(['check-config', join(root, 'config/gateway.yaml')], { UPSTREAM_URL: 'localhost:1' });
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/UPSTREAM_URL \(environment variable, overrides upstream\.url\)/);
    const dir = mkdtempSync(join(tmpdir(), 'dlgw-cli-'));
    const onlyV1 = join(dir, 'only-v1.yaml');
    writeFileSync(onlyV1, 'lifecycle:\n  versions:\n    - { version: 1, released: 2025-01-15 }\n');
    const refused = await inProcess(['check-config', onlyV1]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/version 2 of the API contract has no release date/);
  });

  it('backend starts the reference backend on BACKEND_PORT', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'backend'], {
      cwd: root,
      env: { ...cleanEnv(), BACKEND_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<unknown>((resolve) => child.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => {
          output += c.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (m) resolve(m[1] as string);
        });
        child.once('exit', () => reject(new Error(`exited: ${output}`)));
      });
      expect(await (await fetch(`${url}/ping`)).json()).toMatchObject({ apiVersion: HEAD });
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const bad = cli(['backend'], { BACKEND_PORT: 'x' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^dl-version-gateway backend: BACKEND_PORT/);
  }, 40_000);
});
