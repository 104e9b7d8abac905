// nginx as a keep-alive, round-robin reverse proxy: the bench's optional nginx row (one upstream) and the
// scale-out test's load balancer (several gateways), when an nginx binary exists.

import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './free-port.js';

/** nginx on PATH (or in the sbin folders a non-root PATH often lacks), else undefined. */
export function findNginx(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, 'nginx');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

export interface RunningNginx {
  readonly url: string;
  readonly version: string;
  /** The master's pid (its worker is its child). */
  readonly pid: number;
  stop(): Promise<void>;
}

/** Starts nginx in front of `upstreams` (round-robin; nginx's defaults on a dead upstream: max_fails=1, fail_timeout=10s). */
export function startNginx(binary: string, upstreams: string | readonly string[]): Promise<RunningNginx> {
  const servers = (typeof upstreams === 'string' ? [upstreams] : upstreams).map((u) => new URL(u));
  return startNginxWith(binary, (listen) => `
  upstream backend {
${servers.map((u) => `    server ${u.hostname}:${u.port};`).join('\n')}
    keepalive 64;
    keepalive_requests 1000000;
    # Below Node's server keep-alive timeout (5 s): never reuse a connection the backend is closing.
    keepalive_timeout 4s;
  }
  server {
    listen ${listen};
    location / {
      proxy_pass http://backend;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
`);
}

/** Starts nginx with `http(listen)` as its http {} context's own part (upstreams, maps, a server on `listen`). */
export async function startNginxWith(binary: string, http: (listen: string) => string): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'dlgw-bench-nginx-'));
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
  const port = await freePort();
  const isRoot = process.getuid?.() === 0;
  const conf = `
${isRoot ? 'user root;' : ''}
daemon off;
master_process on;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  keepalive_requests 1000000;
  keepalive_timeout 60s;
${http(`127.0.0.1:${port}`)}
}
`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const proc: ChildProcess = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const killOnExit = () => proc.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM'); // fast shutdown; the worker goes with the master
      const hard = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(hard);
    }
    cleanup();
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 5_000;
  for (;;) {
    if (proc.exitCode !== null) {
      let log = '';
      try {
        log = readFileSync(join(dir, 'error.log'), 'utf8');
      } catch {
        /* none */
      }
      cleanup();
      throw new Error(`nginx exited at start: ${stderr}${log}`.trim());
    }
    try {
      await fetch(`${url}/ping`, { method: 'POST', body: '', signal: AbortSignal.timeout(1_000) }).then((r) => r.arrayBuffer());
      break;
    } catch (e) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`nginx did not answer on ${url}: ${(e as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const version = await new Promise<string>((resolve) => {
    const v = spawn(binary, ['-v'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let out = '';
    v.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    v.once('exit', () => resolve(out.trim().replace(/^nginx version: /, '')));
    v.once('error', () => resolve('unknown'));
  });
  return { url, version, pid: proc.pid ?? -1, stop };
}

/** CPU time (µs) used so far by a process and its children (nginx's master and worker), from /proc; undefined elsewhere. */
export function procTreeCpuUs(pid: number): number | undefined {
  const TICK_US = 10_000; // USER_HZ is 100 on Linux
  const cpuOf = (p: number): number => {
    const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US; // utime, stime
  };
  try {
    let total = cpuOf(pid);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    for (const child of children ? children.split(/\s+/) : []) total += cpuOf(Number(child));
    return total;
  } catch {
    return undefined;
  }
}
