// The backend at a version below its handlers' (createReferenceBackend's `apiVersion`): each call at that version is
// validated by its schemas, translated up to the handlers' version by the core's own plans, and its answer translated
// back down, so the double speaks an older version with the head's stores (a backend at version b, as open-source
// DataLens speaks version 1).

import type { ContractServices } from '../core/contract-model/services.js';
import { type LoadedContract } from '../core/contract-model/load.js';
import type { Json, MigrationContext } from '../core/contract-model/types.js';
import { BackendCallError, GatewayError, isIssueList } from '../core/errors.js';
import { translateRequest, translateResponse, validateRequest } from '../core/translate/engine.js';
import { buildPlans } from '../core/translate/plan.js';
import type { CallContext, MethodHandler } from './methods/context.js';
import { invoke } from './methods/index.js';
import { BackendError } from './shared/errors.js';

/** Serves one call at the older version: the method's name there, its body, the call's context. */
export type OlderFront = (name: string, body: Json, ctx: CallContext) => Promise<unknown>;

/** The lookups the contract's migrations make, answered in process (no cache to share: one backend). */
function services(): ContractServices {
  const tokens = new Map<string, string>();
  return {
    legacyKeys: {
      resolve: async (key, on) => {
        try {
          const found = await on.callBackend('resolveLegacyKey', { key });
          return typeof found.workbookId === 'string' ? { workbookId: found.workbookId, via: 'backend' } : undefined;
        } catch {
          return undefined;
        }
      },
    },
    pageTokens: {
      maxWalkCalls: 50,
      getMany: async (keys) => keys.map((k) => tokens.get(k)),
      set: async (key, token) => void tokens.set(key, token),
    },
  };
}

/** A refusal of the translation, as the backend answers it. */
function asBackendError(e: GatewayError): BackendError {
  if (e.code === 'VALIDATION_ERROR') return new BackendError('VALIDATION_ERROR', e.message, { issues: isIssueList(e.details) ? e.details : [] });
  const code = e.code === 'UNSUPPORTED_OBJECT_VERSION' || e.code === 'VERSION_TRANSLATION_FAILED' ? e.code : 'INTERNAL_ERROR';
  return new BackendError(code, e.message, isIssueList(e.details) ? {} : e.details);
}

/** The front of a backend that speaks `version` of `loaded` with handlers written for its head. */
export function olderFront(loaded: LoadedContract, version: number, methods: ReadonlyMap<string, MethodHandler>): OlderFront {
  const plans = buildPlans(loaded);
  const lookups = services();
  const call = (name: string, body: Json, ctx: CallContext): unknown => {
    const handler = methods.get(name);
    if (!handler) throw new BackendError('ENDPOINT_NOT_FOUND', `Method "${name}" does not exist.`, { method: name });
    return invoke(handler, name, body, ctx);
  };
  return async (name, body, callCtx) => {
    const plan = plans.get(`${version}:${name}`);
    // The backend's own methods, outside the contract (resolveLegacyKey), are the same at every version.
    if (!plan && !loaded.availableIn.has(name) && methods.has(name)) return call(name, body, callCtx);
    if (!plan || plan.unservable) throw new BackendError('ENDPOINT_NOT_FOUND', `Method "${name.slice(0, 64)}" does not exist.`, { method: name.slice(0, 64) });
    let refused: BackendError | undefined;
    const ctx: MigrationContext = {
      clientVersion: callCtx.clientVersion,
      principal: 'reference-backend',
      state: new Map(),
      services: lookups,
      callBackend: async (method, args) => {
        try {
          return call(method, args, callCtx) as Json;
        } catch (e) {
          if (!(e instanceof BackendError)) throw e;
          refused = e;
          throw new BackendCallError(e.status, { code: e.code, message: e.message, details: e.details });
        }
      },
    };
    try {
      const up = await translateRequest(plan, validateRequest(plan, body), ctx);
      return await translateResponse(plan, structuredClone(call(plan.upstreamMethod, up, callCtx)), ctx);
    } catch (e) {
      if (e instanceof BackendCallError && refused) throw refused;
      if (e instanceof GatewayError) throw asBackendError(e);
      throw e;
    }
  };
}
