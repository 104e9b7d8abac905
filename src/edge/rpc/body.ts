// Reads a request body into memory, bounded by the configured limit (decoding gzip/deflate/br), and parses it as JSON.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { GatewayError } from '../../core/errors.js';
import type { MethodSpec } from '../../core/contract-model/types.js';

const tooLarge = (limit: number) =>
  new GatewayError('PAYLOAD_TOO_LARGE', `the request body exceeds ${limit} bytes`, { limitBytes: limit });

/** The content codings a request body may arrive in; the answer to any other says so in Accept-Encoding (RFC 7694). */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

const unsupportedEncoding = (header: string) =>
  new GatewayError('UNSUPPORTED_MEDIA_TYPE', `content-encoding ${header.slice(0, 60)} is not supported; send the body as is, or as ${ACCEPTED_ENCODINGS}`, {
    received: `content-encoding: ${header.slice(0, 100)}`,
    acceptEncoding: ACCEPTED_ENCODINGS,
  });

/** A decompressor for the request's content coding; undefined for none/identity; 415 for others or for several. */
function decoderFor(header: string | undefined): Transform | undefined {
  if (header === undefined) return undefined;
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return undefined;
  if (codings.length > 1) throw unsupportedEncoding(header);
  switch (codings[0]) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate(); // HTTP's "deflate" is the zlib format (RFC 9110 §8.4.1.2)
    case 'br':
      return createBrotliDecompress();
    default:
      throw unsupportedEncoding(header);
  }
}

/**
 * Reads the body within `limit` bytes: a declared Content-Length over it is refused before reading a byte, a
 * chunked body is counted as it comes. A gzip/deflate/br body is decompressed as it arrives and the limit
 * applies to the decoded bytes too, so a small bomb stops at `limit` bytes of output. `beforeRead` runs once
 * the declared length and the coding passed (the place to send 100 Continue).
 */
export function readBody(req: IncomingMessage, limit: number, beforeRead?: () => void): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  let decoder: Transform | undefined;
  try {
    decoder = decoderFor(req.headers['content-encoding']);
  } catch (e) {
    return Promise.reject(e);
  }
  const output = decoder;
  beforeRead?.();
  return new Promise((resolve, reject) => new BodyRead(req, limit, output, resolve, reject).start());
}

/** One body being read: its chunks, the bytes counted so far, and the listeners it leaves when settled. */
class BodyRead {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private received = 0;
  private settled = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly limit: number,
    private readonly output: Transform | undefined,
    private readonly resolve: (body: Buffer) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  start(): void {
    const { req, output } = this;
    if (output) {
      output.on('data', this.collect);
      output.once('end', this.done);
      output.once('error', (err: Error) =>
        this.refuse(
          new GatewayError('INVALID_JSON', `the request body does not decode as ${String(req.headers['content-encoding']).slice(0, 40)}`, {
            reason: err.message.slice(0, 200),
          }),
        ),
      );
    }
    req.on('data', this.onData);
    req.on('end', this.onEnd);
    req.on('error', this.onError);
    req.on('close', this.onClose);
  }

  private cleanup(): void {
    this.settled = true;
    this.req.off('data', this.onData);
    this.req.off('end', this.onEnd);
    this.req.off('error', this.onError);
    this.req.off('close', this.onClose);
    this.output?.destroy();
  }

  private refuse(e: Error): void {
    if (this.settled) return;
    this.cleanup();
    this.req.pause();
    this.reject(e);
  }

  private readonly collect = (chunk: Buffer): void => {
    this.size += chunk.length;
    if (this.size > this.limit) return this.refuse(tooLarge(this.limit));
    this.chunks.push(chunk);
  };

  private readonly done = (): void => {
    if (this.settled) return;
    this.cleanup();
    this.resolve(this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size));
  };

  private readonly onData = (chunk: Buffer): void => {
    if (!this.output) return this.collect(chunk);
    this.received += chunk.length;
    if (this.received > this.limit) return this.refuse(tooLarge(this.limit));
    this.output.write(chunk);
  };

  private readonly onEnd = (): void => (this.output ? void this.output.end() : this.done());

  private readonly onError = (err: Error): void => {
    if (this.settled) return;
    this.cleanup();
    this.reject(err);
  };

  // The client went away before the body ended.
  private readonly onClose = (): void => {
    if (this.settled || this.req.complete) return;
    this.cleanup();
    this.reject(new Error('client closed the request before its body ended'));
  };
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

// Methods whose real schema takes no arguments (MethodSpec.emptyBody) accept no body at all, with no content type.

const EMPTY_OBJECT = Buffer.from('{}');

/** The head may go on without a JSON content type: the method takes no arguments and the client named no type. */
export const mediaTypeOptional = (spec: MethodSpec, headers: IncomingHttpHeaders): boolean =>
  spec.emptyBody === true && headers['content-type'] === undefined;

/** The body to check and forward: `{}` for such a method's empty body; a body sent without a content type is 415. */
export function argumentsBody(spec: MethodSpec, headers: IncomingHttpHeaders, raw: Buffer): Buffer {
  if (spec.emptyBody !== true) return raw;
  if (raw.length === 0) return EMPTY_OBJECT;
  if (headers['content-type'] === undefined) {
    throw new GatewayError('UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json', { received: '' });
  }
  return raw;
}
