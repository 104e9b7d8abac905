// serve refuses to start in one line naming the culprit, exit 2, and never says "listening" first: a port in use,
// a bad environment variable, an unreadable config, a bad LOG_LEVEL. An unreachable upstream is said at start.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/cli/serve.js';
import { ENV_OVERRIDES } from '../../src/config/load.js';
import { startFaultUpstream } from '../helpers/fault-upstream.js';
import { ROOT, configDoc, memoryLog, parseJsonLines, tempDir, waitFor, yamlOf } from '../helpers/serve-process.js';

const OVERRIDES = [...Object.keys(ENV_OVERRIDES), 'ADMIN_TOKEN', 'ADMIN_TOKEN_FILE', 'GATEWAY_CONFIG', 'LOG_LEVEL'];

/** Runs `serve` to its exit (every case here must exit by itself). */
function serveUntilExit(args: string[], env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of OVERRIDES) delete childEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args], {
    cwd: ROOT,
    env: { ...childEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

let held: Server;
let heldPort: number;
let configPath: string;
let blankTokenFile: string;

beforeAll(async () => {
  // A port some other process holds.
  held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', () => resolve()));
  heldPort = (held.address() as { port: number }).port;
  configPath = join(tempDir('dlgw-startup-'), 'gateway.yaml');
  writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: 'http://127.0.0.1:9' })));
  blankTokenFile = join(tempDir('dlgw-startup-'), 'blank-token');
  writeFileSync(blankTokenFile, '  \n\t\n');
});
afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())));

const CASES: { name: string; args?: string[]; env: () => Record<string, string>; line: () => RegExp }[] = [
  {
    name: 'the public port in use',
    env: () => ({ PORT: String(heldPort) }),
    line: () => new RegExp(`^cannot listen on 127\\.0\\.0\\.1:${heldPort} \\(listen\\.host/listen\\.port, or HOST/PORT\\): the address is already in use$`),
  },
  {
    name: 'the admin port in use',
    env: () => ({ ADMIN_PORT: String(heldPort) }),
    line: () => new RegExp(`^cannot listen on 127\\.0\\.0\\.1:${heldPort} \\(admin\\.host/admin\\.port, or ADMIN_HOST/ADMIN_PORT\\): the address is already in use$`),
  },
  {
    name: 'LOG_LEVEL=verbose',
    env: () => ({ LOG_LEVEL: 'verbose' }),
    line: () => /^LOG_LEVEL \(environment variable\): "verbose" is not a log level \(.*info.*\)$/,
  },
  {
    name: 'UPSTREAM_URL=localhost:1',
    env: () => ({ UPSTREAM_URL: 'localhost:1' }),
    line: () => /^invalid config .*gateway\.yaml: UPSTREAM_URL \(environment variable, overrides upstream\.url\): /,
  },
  {
    name: 'PORT=http',
    env: () => ({ PORT: 'http' }),
    line: () => /^invalid config .*: PORT \(environment variable, overrides listen\.port\): not an integer: "http"$/,
  },
  {
    name: 'a whitespace-only ADMIN_TOKEN',
    env: () => ({ ADMIN_TOKEN: ' \t ' }),
    line: () => /^invalid config .*gateway\.yaml: ADMIN_TOKEN \(environment variable\): the admin token is blank \(empty or only whitespace\)$/,
  },
  {
    name: 'an admin token file of whitespace only',
    env: () => ({ ADMIN_TOKEN_FILE: blankTokenFile }),
    line: () => /^invalid config .*gateway\.yaml: ADMIN_TOKEN_FILE \(environment variable\): the token in .*blank-token is blank \(empty or only whitespace\)$/,
  },
  {
    name: 'an ADMIN_TOKEN with a space inside',
    env: () => ({ ADMIN_TOKEN: 'two words' }),
    line: () => /^invalid config .*: ADMIN_TOKEN \(environment variable\): the admin token contains whitespace, which a Bearer credential cannot carry$/,
  },
  {
    name: 'an unreadable config',
    args: ['--config', '/nonexistent/gateway.yaml'],
    env: () => ({}),
    line: () => /^invalid config \/nonexistent\/gateway\.yaml: cannot read the file: ENOENT/,
  },
];

// Concurrent child processes each start tsx: on a loaded 2-core machine one takes over 20 s to refuse.
describe.concurrent('serve cannot start', { timeout: 60_000 }, () => {
  it.each(CASES)('$name: one line naming it, exit 2, no "listening"', async (c) => {
    const run = await serveUntilExit(c.args ?? ['--config', configPath], { LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', ADMIN_PORT: '0', ...c.env() });
    expect(run.code).toBe(2);
    // stderr: exactly one line, the culprit named; no stack trace.
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^dl-version-gateway serve: /);
    expect(lines[0]!.replace('dl-version-gateway serve: ', '')).toMatch(c.line());
    expect(run.stderr).not.toMatch(/\n\s+at /);
    // stdout: the same as one fatal JSON line, and nothing that says it was serving.
    const fatal = parseJsonLines(run.stdout).filter((e) => e.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]!.msg).toMatch(c.line());
    expect(run.stdout).not.toMatch(/listening on|admin listener/);
  });
});

describe('serve in front of an upstream that does not answer', () => {
  it('says so at start, naming the upstream and the reason', async () => {
    const refused = await startFaultUpstream('refuse');
    const path = join(tempDir('dlgw-startup-'), 'gateway.yaml');
    writeFileSync(path, yamlOf(configDoc({ upstreamUrl: refused.url })));
    const log = memoryLog('info');
    const serving = await serve({ configPath: path, logger: log.logger, env: {}, watch: false });
    try {
      const warning = await waitFor(() => log.entries().find((e) => /^upstream not ready/.test(String(e.msg))), 'the start-up warning');
      expect(warning).toMatchObject({ level: 40, upstream: refused.url });
      expect(warning.msg).toMatch(/could not be reached \(GET \/ping\): ECONNREFUSED; \/readyz answers 503 until it is$/);
    } finally {
      await serving.stop();
      await refused.close();
    }
  });
});
