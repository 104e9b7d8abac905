// Where the process logger writes: lines to a file descriptor (stdout), asynchronously and in order.
//
// pino's default destination retries a failed write forever when it flushes at exit, so a log reader that
// went away (a dead log shipper, `serve | head`) kept the process up after SIGTERM. Here a reader that is
// gone turns logging off: the process neither hangs nor crashes for it.

import { write, writeSync } from 'node:fs';

/** Bytes queued while the reader is slow; beyond them lines are dropped (and counted), not buffered without end. */
const MAX_QUEUED = 16 * 1024 * 1024;
/** At exit, how long a full pipe may hold the last lines back. */
const EXIT_FLUSH_MS = 1_000;

export class LogStream {
  private queue: string[] = [];
  private queuedBytes = 0;
  private writing = false;
  private broken = false;
  /** Lines dropped because the queue was full. */
  dropped = 0;

  constructor(private readonly fd = 1) {
    process.once('exit', () => this.flushSync());
  }

  /** pino's destination interface: one serialised line at a time. */
  write(line: string): boolean {
    if (this.broken) return true;
    if (this.queuedBytes + line.length > MAX_QUEUED) {
      this.dropped++;
      return false;
    }
    this.queue.push(line);
    this.queuedBytes += line.length;
    if (!this.writing) this.writeQueued();
    return true;
  }

  private writeQueued(): void {
    if (this.broken || this.queue.length === 0) {
      this.writing = false;
      return;
    }
    this.writing = true;
    const chunk = Buffer.from(this.queue.join(''), 'utf8');
    this.queue = [];
    this.queuedBytes = 0;
    this.writeChunk(chunk);
  }

  private writeChunk(chunk: Buffer): void {
    write(this.fd, chunk, 0, chunk.length, null, (err, n) => {
      if (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') setTimeout(() => this.writeChunk(chunk), 10).unref();
        else this.stop();
        return;
      }
      if (n < chunk.length) this.writeChunk(chunk.subarray(n));
      else this.writeQueued();
    });
  }

  /** The reader is gone (EPIPE, EBADF, …): logging stops for the rest of the process. */
  private stop(): void {
    this.broken = true;
    this.writing = false;
    this.queue = [];
    this.queuedBytes = 0;
  }

  /** At exit: what is queued is written once, bounded in time; a gone reader ends it at once. */
  flushSync(): void {
    if (this.broken || this.queue.length === 0) return;
    let chunk = Buffer.from(this.queue.join(''), 'utf8');
    this.stop();
    const deadline = Date.now() + EXIT_FLUSH_MS;
    while (chunk.length > 0 && Date.now() < deadline) {
      try {
        chunk = chunk.subarray(writeSync(this.fd, chunk));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      }
    }
  }
}
