// The one answer for a path that names nothing the gateway serves.

import { GatewayError } from '../core/errors.js';

/** 404 for `path` (the caller chooses what of the URL to echo; at most 200 characters of it are). */
export const endpointNotFound = (path: string) =>
  new GatewayError('ENDPOINT_NOT_FOUND', 'no such endpoint; methods are called as POST /rpc/<method>', {
    path: path.slice(0, 200),
    availableIn: [],
  });
