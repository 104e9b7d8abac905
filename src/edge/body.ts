// Reads a request body into memory, bounded by the configured limit, and parses it as JSON.

import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../core/errors.js';

const tooLarge = (limit: number) =>
  new GatewayError('PAYLOAD_TOO_LARGE', `the request body exceeds ${limit} bytes`, { limitBytes: limit });

/** Refuses a declared Content-Length over the limit before reading a byte; counts chunked bodies as they come. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onClose = () => {
      // The client went away before the body ended.
      cleanup();
      reject(new Error('client closed the request before its body ended'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

// JSON text is UTF-8 (RFC 8259 §8.1): invalid bytes are refused, never silently replaced.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** RFC 8259 §8.1 lets a parser ignore a BOM: drop it, so that what is checked is what is forwarded. */
export function withoutBom(raw: Buffer): Buffer {
  return raw.length >= 3 && raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw;
}

export function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) throw new GatewayError('INVALID_JSON', 'the request body is empty; send a JSON object');
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new GatewayError('INVALID_JSON', 'the request body is not valid UTF-8', { reason: 'invalid UTF-8' });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new GatewayError('INVALID_JSON', 'the request body is not valid JSON', { reason: (e as Error).message.slice(0, 200) });
  }
}
