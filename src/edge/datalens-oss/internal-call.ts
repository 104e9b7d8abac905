// One internal call to the open-source DataLens UI server and the answers made from it: the calls of one public call
// share its headers, deadline and cancellation (calls.ts, entry-calls.ts).

import type { Dispatcher } from 'undici';
import { upstreamUnavailable } from '../../core/upstream-errors.js';
import { isJsonMediaType } from '../../core/media-type.js';
import { publicActionError, type PublicAnswer } from './public-errors.js';

export interface OssTarget {
  /** The UI server's origin and base path (upstream.url). */
  readonly origin: string;
  readonly basePath: string;
  readonly dispatcher: Dispatcher;
  /** upstream.datalensOss.authCookie. */
  readonly authCookie: string;
  /** The most bytes of one internal answer read (limits.responseBytes). */
  readonly maxAnswerBytes: number;
}

/** The public answer: status, its headers (content type) and bytes. */
export interface OssAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

export interface InternalAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly raw: Buffer;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Error codes of the gateway library for an action it does not have: the UI server is not the one this table is for. */
const NO_SUCH_ACTION = new Set(['UNKNOWN_SERVICE_ACTION', 'UNKNOWN_SERVICE', 'UNKNOWN_ACTION']);

export const asJson = (answer: PublicAnswer): OssAnswer => ({ status: answer.status, headers: { 'content-type': JSON_TYPE }, body: Buffer.from(JSON.stringify(answer.body)) });
export const asIs = (answer: InternalAnswer): OssAnswer => ({ status: answer.status, headers: answer.contentType ? { 'content-type': answer.contentType } : {}, body: answer.raw });

export function parsed(answer: InternalAnswer): unknown {
  if (!isJsonMediaType(answer.contentType) || answer.raw.length === 0) return undefined;
  try {
    return JSON.parse(answer.raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

export const missingRoute = (what: string, status: number) =>
  upstreamUnavailable(`open-source DataLens answered ${status} to ${what}: upstream.url must be its UI server in full mode (APP_MODE=full), which serves that route`);

/** The internal calls one public call makes: same headers, same deadline. */
export class InternalCall {
  constructor(
    private readonly target: OssTarget,
    private readonly headers: Record<string, string | string[]>,
    private readonly signal: AbortSignal,
  ) {}

  /** `POST /gateway/root/<service>/<action>`: a success passes as it came (the public controller sends the same body). */
  async action(service: string, action: string, body: Buffer, requestId: string): Promise<OssAnswer> {
    const answer = await this.send('POST', `/gateway/root/${service}/${action}`, body);
    if (answer.status >= 200 && answer.status < 300) {
      if (!isJsonMediaType(answer.contentType)) throw missingRoute(`POST /gateway/root/${service}/${action}`, answer.status);
      return asIs(answer);
    }
    return asJson(this.actionError(`${service}.${action}`, answer, requestId));
  }

  /**
   * `us.getEntry` with `args`: the entry, or the public answer when United Storage refused (its error, as the
   * public controller gives it).
   */
  async entry(args: Record<string, unknown>, requestId: string): Promise<{ readonly entry: Record<string, unknown> } | { readonly refused: OssAnswer }> {
    const lookup = await this.send('POST', '/gateway/root/us/getEntry', Buffer.from(JSON.stringify(args)));
    if (lookup.status < 200 || lookup.status >= 300) return { refused: asJson(this.actionError('us.getEntry', lookup, requestId)) };
    const entry = parsed(lookup);
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw missingRoute('POST /gateway/root/us/getEntry', lookup.status);
    return { entry: entry as Record<string, unknown> };
  }

  actionError(action: string, answer: InternalAnswer, requestId: string): PublicAnswer {
    const body = parsed(answer) as { code?: unknown } | undefined;
    const mapped = body && !NO_SUCH_ACTION.has(String(body.code)) ? publicActionError(answer.status, body, requestId) : undefined;
    if (!mapped) throw missingRoute(`the action ${action}`, answer.status);
    return mapped;
  }

  async send(method: 'GET' | 'POST', path: string, body?: Buffer): Promise<InternalAnswer> {
    const { origin, basePath, dispatcher, maxAnswerBytes } = this.target;
    const answer = await dispatcher.request({
      origin,
      method,
      path: basePath + path,
      headers: body === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json' },
      body,
      signal: this.signal,
      // A POST that failed on a reused connection may have reached the UI server: never replay it.
      idempotent: method === 'GET',
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxAnswerBytes) {
        answer.body.destroy();
        throw upstreamUnavailable(`the answer exceeds the ${maxAnswerBytes}-byte limit for checked responses`);
      }
      chunks.push(chunk);
    }
    const type = answer.headers['content-type'];
    return { status: answer.statusCode, contentType: typeof type === 'string' ? type : undefined, raw: Buffer.concat(chunks, size) };
  }
}
