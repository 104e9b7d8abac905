// A redis-server of our own on a free loopback port, nothing kept on disk (the machine's own Redis is left
// alone): the bench's shared-cache rows and the scale-out test use it. Stop, start again on the same port,
// or freeze it (SIGSTOP) to play a Redis that accepts commands and never answers.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** Whether a redis-server binary is on PATH. */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

export interface RunningRedis {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM); resolves once it exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing). */
  start(): Promise<void>;
  /** Freezes the server: connections stay open, commands get no answer. */
  pause(): void;
  resume(): void;
  /** Stops the server for good and removes its folder. */
  dispose(): Promise<void>;
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'dlgw-redis-'));
  let proc: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc = child;
    exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) at start: ${out}`)));
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
    });
  };
  const stop = async () => {
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGCONT');
      proc.kill('SIGTERM');
      await exited;
    }
  };
  const killOnExit = () => proc?.kill('SIGKILL');
  process.once('exit', killOnExit);
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    pause: () => void proc?.kill('SIGSTOP'),
    resume: () => void proc?.kill('SIGCONT'),
    async dispose() {
      process.off('exit', killOnExit);
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
