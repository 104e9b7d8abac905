// Runs a plan: validate at the client's version, migrate the request up, guard and migrate the response down.

import { BackendCallError, GatewayError } from '../errors.js';
import { toValidationIssues } from '../validation-issues.js';
import type { Json, MigrationContext } from '../contract/types.js';
import { collect, getAt, isJsonObject } from './paths.js';
import type { MethodPlan } from './plan.js';
import { isPromiseLike } from './promise-like.js';

const NOT_AN_OBJECT = 'the request body must be a JSON object';

/** Validates a parsed body against the method's request schema at the client's version; returns the parsed output. */
export function validateRequest(plan: MethodPlan, body: unknown): Json {
  const result = plan.spec.request.safeParse(body);
  if (!result.success) {
    const detail = isJsonObject(body) ? `invalid arguments for ${plan.method} at API version ${plan.version}` : NOT_AN_OBJECT;
    throw new GatewayError('VALIDATION_ERROR', detail, toValidationIssues(result.error.issues));
  }
  // A request schema is an object schema; this only keeps a looser one from handing a migration a non-object.
  if (!isJsonObject(result.data)) {
    throw new GatewayError('VALIDATION_ERROR', NOT_AN_OBJECT, [
      { expected: 'object', code: 'invalid_type', path: [], message: 'Invalid input: expected object' },
    ]);
  }
  return result.data as Json;
}

async function run(plan: MethodPlan, steps: MethodPlan['up'], body: Json, ctx: MigrationContext): Promise<Json> {
  let current = body;
  for (const step of steps) {
    try {
      const out = step(current, ctx);
      current = isPromiseLike(out) ? await out : out;
    } catch (e) {
      if (e instanceof GatewayError || e instanceof BackendCallError) throw e;
      throw new GatewayError('INTERNAL_ERROR', 'a version migration failed unexpectedly', { method: plan.method });
    }
  }
  return current;
}

export function translateRequest(plan: MethodPlan, body: Json, ctx: MigrationContext): Promise<Json> {
  return plan.up.length ? run(plan, plan.up, body, ctx) : Promise.resolve(body);
}

/**
 * 409 when any versioned object in a head-shaped response was saved under a newer version than the
 * client's; 502 when one does not say which version it was saved under (the guard never fails open).
 */
export function guardObjects(plan: MethodPlan, body: unknown): void {
  for (const loc of plan.guarded) {
    for (const obj of collect(body, loc.path)) {
      if (obj === null) continue; // an optional object that is absent
      const versionField = loc.versionField ?? 'version';
      const objectVersion = isJsonObject(obj) ? obj[versionField] : undefined;
      if (!isJsonObject(obj) || !Number.isSafeInteger(objectVersion)) {
        throw new GatewayError('UPSTREAM_UNAVAILABLE', `the backend answered with a ${loc.type} that does not carry the schema version it was saved under`, {
          reason: `${loc.type} without an integer ${versionField}`,
        });
      }
      // A listing row without the object's content is a reference: served whatever version it was saved under.
      if (loc.listing && !(loc.listing.content !== undefined && getAt(obj, loc.listing.content).found)) continue;
      if ((objectVersion as number) > plan.version) {
        const idField = loc.idField ?? 'id';
        throw new GatewayError(
          'UNSUPPORTED_OBJECT_VERSION',
          `this ${loc.type} was saved under API version ${objectVersion}; API version ${plan.version} cannot serve it`,
          {
            objectType: loc.type,
            objectId: obj[idField] ?? null,
            objectVersion,
            requestedVersion: plan.version,
            minVersion: objectVersion,
          },
        );
      }
    }
  }
}

/** A successful head-shaped response → the client's version (after the object-version guard). */
export function translateResponse(plan: MethodPlan, body: unknown, ctx: MigrationContext): Promise<unknown> {
  try {
    guardObjects(plan, body);
  } catch (e) {
    return Promise.reject(e);
  }
  if (!isJsonObject(body) || plan.down.length === 0) return Promise.resolve(body);
  return run(plan, plan.down, body, ctx);
}
