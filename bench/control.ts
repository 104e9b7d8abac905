// The runner ↔ child-process protocol of the benchmark: one JSON object per line.
//
// A child prints {"type":"ready",...} on stdout once it listens, then answers {"id":n,"cmd":...} lines read
// from stdin with {"id":n,"ok":true,"result":...}. When stdin closes (the runner stopped it, or died) or on
// SIGTERM/SIGINT it runs its exit hook, prints {"type":"exit","result":...} and exits with code 0, so that
// `--cpu-prof` profiles get written. Nothing else may be printed on a child's stdout.

import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

type Handler = (arg: unknown) => unknown;

// ---------------------------------------------------------------- child side

function emit(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/**
 * CPU profiling on command, through the in-process inspector: the same .cpuprofile as `node --cpu-prof`
 * writes, but covering only the measured run (not start-up and warm-up).
 */
function profilerHandlers(): Record<string, Handler> {
  let session: Session | undefined;
  return {
    async profileStart(arg) {
      if (session) throw new Error('already profiling');
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: (arg as { intervalUs?: number } | undefined)?.intervalUs ?? 250 });
      await session.post('Profiler.start');
      return {};
    },
    async profileStop(arg) {
      if (!session) throw new Error('not profiling');
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      session = undefined;
      const file = (arg as { file: string }).file;
      writeFileSync(file, JSON.stringify(profile));
      return { file };
    },
  };
}

/**
 * Garbage-collection pauses of this process since it started, by kind: a scavenge that promotes what it
 * should have freed shows up here as long minor pauses and frequent full collections.
 */
function gcHandlers(): Record<string, Handler> {
  const totals = { minor: 0, minorMs: 0, major: 0, majorMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) {
        totals.minor++;
        totals.minorMs += entry.duration;
      } else if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) {
        totals.major++;
        totals.majorMs += entry.duration;
      }
    }
  }).observe({ entryTypes: ['gc'] });
  return { gcPauses: () => ({ ...totals }) };
}

/**
 * Serves the control channel in a child process. `onExit` runs once, on stdin close or a signal; its result
 * is printed in the final {"type":"exit"} line. Every child also answers cpu, faults, gcPauses, profileStart and profileStop.
 */
export function serveControl(ready: Record<string, unknown>, ownHandlers: Record<string, Handler>, onExit: () => unknown): void {
  const handlers: Record<string, Handler> = {
    ...profilerHandlers(),
    ...gcHandlers(),
    /** CPU time (user + system, µs) this process has used since it started. */
    cpu: () => {
      const { user, system } = process.cpuUsage();
      return user + system;
    },
    /** Minor page faults this process has taken since it started (fresh memory touched: large buffers and strings). */
    faults: () => process.resourceUsage().minorPageFault,
    ...ownHandlers,
  };
  let exiting = false;
  const exit = async () => {
    if (exiting) return;
    exiting = true;
    let result: unknown;
    try {
      result = await onExit();
    } catch (e) {
      result = { error: (e as Error).message };
    }
    emit({ type: 'exit', result });
    // Let stdout drain before leaving (a pipe write is asynchronous).
    process.stdout.write('', () => process.exit(0));
  };
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    let message: { id?: number; cmd?: string; arg?: unknown };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return;
    }
    const { id, cmd } = message;
    const handler = cmd ? handlers[cmd] : undefined;
    if (!handler) {
      emit({ id, ok: false, error: `unknown command ${String(cmd)}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(message.arg))
      .then(
        (result) => emit({ id, ok: true, result }),
        (e: unknown) => emit({ id, ok: false, error: (e as Error).message }),
      );
  });
  lines.on('close', () => void exit());
  process.once('SIGTERM', () => void exit());
  process.once('SIGINT', () => void exit());
  emit({ type: 'ready', ...ready });
}

/** True when this module is the process's entry point (`node --import tsx bench/x.ts`). */
export function isMain(importMetaUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && resolve(entry) === fileURLToPath(importMetaUrl);
}

// ---------------------------------------------------------------- runner side

export interface Child {
  readonly name: string;
  readonly pid: number;
  /** The fields of the child's "ready" line. */
  readonly ready: Record<string, unknown>;
  call<T = unknown>(cmd: string, arg?: unknown): Promise<T>;
  /** Closes the child's stdin and waits for its exit line (SIGTERM, then SIGKILL, if it hangs). */
  stop(): Promise<unknown>;
}

const running = new Set<ChildProcess>();

/** Kills every child still running (synchronous: safe in process.on('exit')). */
export function killAllChildren(): void {
  for (const proc of running) {
    try {
      proc.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
  running.clear();
}

export interface StartOptions {
  /** Extra node flags (e.g. --expose-gc). */
  readonly nodeArgs?: readonly string[];
  /** Run `<compiledDir>/<file>.js` with plain node (see build.ts) instead of the .ts file under tsx. */
  readonly compiledDir?: string | undefined;
  readonly args?: readonly string[];
  readonly readyTimeoutMs?: number;
}

/** Starts `node <compiledDir>/<file>.js`, or `node --import tsx <file>.ts`, and waits for its ready line. */
export function startNodeChild(name: string, file: string, options: StartOptions = {}): Promise<Child> {
  const entry = options.compiledDir
    ? [resolve(options.compiledDir, file.replace(/\.ts$/, '.js'))]
    : ['--import', 'tsx', resolve(PROJECT_ROOT, file)];
  const proc = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry, ...(options.args ?? [])], {
    cwd: PROJECT_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  running.add(proc);
  return attach(name, proc, options.readyTimeoutMs ?? 20_000);
}

function attach(name: string, proc: ChildProcess, readyTimeoutMs: number): Promise<Child> {
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let exitResult: unknown;
  let exitLine: (() => void) | undefined;
  const exited = new Promise<void>((resolveExit) => {
    proc.once('exit', () => {
      running.delete(proc);
      for (const p of pending.values()) p.reject(new Error(`${name} exited`));
      pending.clear();
      resolveExit();
    });
  });
  return new Promise<Child>((resolveReady, rejectReady) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      rejectReady(new Error(`${name}: no ready line within ${readyTimeoutMs} ms`));
    }, readyTimeoutMs);
    proc.once('error', (e) => {
      clearTimeout(timer);
      rejectReady(e);
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      rejectReady(new Error(`${name} exited before it was ready (code ${code}, signal ${signal})`));
    });
    const lines = createInterface({ input: proc.stdout! });
    lines.on('line', (line) => {
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(line) as Record<string, unknown>;
      } catch {
        process.stderr.write(`[${name}] ${line}\n`);
        return;
      }
      if (message.type === 'ready') {
        clearTimeout(timer);
        const { type: _type, ...ready } = message;
        resolveReady(child(ready));
      } else if (message.type === 'exit') {
        exitResult = message.result;
        exitLine?.();
      } else if (typeof message.id === 'number') {
        const p = pending.get(message.id);
        pending.delete(message.id);
        if (message.ok) p?.resolve(message.result);
        else p?.reject(new Error(`${name}: ${String(message.error)}`));
      }
    });
  });

  function child(ready: Record<string, unknown>): Child {
    return {
      name,
      pid: proc.pid ?? -1,
      ready,
      call<T>(cmd: string, arg?: unknown): Promise<T> {
        return new Promise<T>((resolveCall, rejectCall) => {
          if (proc.exitCode !== null || proc.signalCode !== null) return rejectCall(new Error(`${name} is not running`));
          const id = nextId++;
          pending.set(id, { resolve: resolveCall as (v: unknown) => void, reject: rejectCall });
          proc.stdin!.write(`${JSON.stringify({ id, cmd, arg })}\n`);
        });
      },
      async stop() {
        if (proc.exitCode !== null || proc.signalCode !== null) return exitResult;
        const gotExitLine = new Promise<void>((r) => (exitLine = r));
        proc.stdin!.end();
        const term = setTimeout(() => proc.kill('SIGTERM'), 5_000);
        const kill = setTimeout(() => proc.kill('SIGKILL'), 8_000);
        await exited;
        clearTimeout(term);
        clearTimeout(kill);
        await Promise.race([gotExitLine, new Promise((r) => setTimeout(r, 100))]);
        return exitResult;
      },
    };
  }
}
