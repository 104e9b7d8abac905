// Methods whose real schema takes no arguments (MethodSpec.emptyBody) accept no body at all, with no content type.

import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../core/errors.js';
import type { MethodSpec } from '../core/contract/types.js';

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
