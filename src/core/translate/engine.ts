// Runs a plan: validate at the client's version, migrate the request up, guard and migrate the response down.

import { BackendCallError, GatewayError } from '../errors.js';
import { toValidationIssues } from '../validation-issues.js';
import type { Json, MigrationContext, ObjectLocation } from '../contract-model/types.js';
import { DEFAULT_POLICY, type GuardPolicy, type KindHistory, decideObject, differences, lostFields } from './guard.js';
import { collect, getAt, isJsonObject, locatesElements } from './paths.js';
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
  if (plan.requestBack) return translateDown(plan, body, ctx);
  return plan.up.length ? run(plan, plan.up, body, ctx) : Promise.resolve(body);
}

/**
 * A request above the backend's version, down to it: refused (422, the fields named) when the structural way back
 * does not give back what the client sent, or when the result is not a request the backend's version takes.
 */
async function translateDown(plan: MethodPlan, body: Json, ctx: MigrationContext): Promise<Json> {
  const original = structuredClone(body);
  const sent = await run(plan, plan.up, body, ctx);
  const back = await run(plan, plan.requestBack ?? [], structuredClone(sent), ctx);
  const fields = lostPaths(original, back).filter((path) => !ownedBy(plan.requestOwned ?? [], path));
  if (fields.length > 0) {
    throw new GatewayError('VERSION_TRANSLATION_FAILED', `API version ${plan.head}, which the backend speaks, cannot carry ${fields.join(', ')} of this ${plan.method} request`, {
      method: plan.method,
      field: fields[0],
      fields,
      backendVersion: plan.head,
      reason: `these fields do not translate down to API version ${plan.head} and back unchanged`,
    });
  }
  const checked = plan.backendRequest?.safeParse(sent);
  if (checked && !checked.success) {
    const paths = [...new Set(checked.error.issues.map((i) => i.path.join('.')))];
    throw new GatewayError('VERSION_TRANSLATION_FAILED', `this ${plan.method} request is not one API version ${plan.head}, which the backend speaks, takes (${paths.join(', ') || 'the body'})`, {
      method: plan.method,
      field: paths[0] ?? null,
      fields: paths,
      backendVersion: plan.head,
      reason: checked.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ').slice(0, 500),
    });
  }
  return sent;
}

/** Whether a path of lostPaths lies under one of `owned` (`*` matching any index, "" the whole body). */
function ownedBy(owned: readonly string[], path: string): boolean {
  const parts = path.split('.');
  return owned.some((o) => {
    if (o === '') return true;
    const want = o.split('.');
    return want.length <= parts.length && want.every((w, i) => w === parts[i] || (w.startsWith('*') && /^[0-9]+$/.test(parts[i] as string)));
  });
}

/** Paths (dotted, array indexes as numbers) of what `original` holds that `back` does not hold the same; what `back` adds is no loss. */
export function lostPaths(original: unknown, back: unknown, at = '', out: string[] = []): string[] {
  if (out.length >= 20 || Object.is(original, back)) return out;
  const join = (k: string | number) => (at === '' ? String(k) : `${at}.${k}`);
  if (isJsonObject(original) && isJsonObject(back)) {
    for (const [k, v] of Object.entries(original)) {
      if (out.length >= 20) break;
      if (v === undefined) continue;
      if (!Object.hasOwn(back, k) || back[k] === undefined) out.push(join(k));
      else lostPaths(v, back[k], join(k), out);
    }
    return out;
  }
  if (Array.isArray(original) && Array.isArray(back)) {
    if (original.length !== back.length) return differences(original, back, at, out);
    original.forEach((v, i) => lostPaths(v, back[i], join(i), out));
    return out;
  }
  out.push(at);
  return out;
}

function refusal(plan: MethodPlan, loc: ObjectLocation, obj: Json, objectVersion: number, policy: GuardPolicy, lost?: { fields: string[]; reason?: string }): GatewayError {
  const unreleased = objectVersion > policy.releasedThrough;
  return new GatewayError(
    'UNSUPPORTED_OBJECT_VERSION',
    `this ${loc.type} was saved under API version ${objectVersion}${unreleased ? ' (not released yet)' : ''}; API version ${plan.version} cannot serve it${lost ? ' whole' : ''}`,
    {
      objectType: loc.type,
      objectId: obj[loc.idField ?? 'id'] ?? null,
      objectVersion,
      requestedVersion: plan.version,
      minVersion: objectVersion,
      rule: policy.olderClients,
      ...(lost && { fields: lost.fields }),
      ...(lost?.reason !== undefined && { reason: lost.reason }),
      ...(unreleased && { minVersionReleased: false }),
    },
  );
}

/** An object whose kind changed between the client's version and the one it was saved under: served only if the round trip is exact. */
export interface PendingCheck {
  readonly loc: ObjectLocation;
  readonly obj: Json;
  readonly objectVersion: number;
  readonly history: KindHistory;
}

/**
 * The object-version guard on a head-shaped answer (docs/reference/object-versions.md), the part that needs no
 * migration: throws 409 for an object decideObject refuses (or whose round trip cannot be made), 502 for one that
 * does not say which version it was saved under (the guard never fails open); returns the objects still to check.
 */
export function guardObjects(plan: MethodPlan, body: unknown, policy: GuardPolicy = DEFAULT_POLICY): PendingCheck[] | undefined {
  let checks: PendingCheck[] | undefined;
  for (const loc of plan.guarded) {
    for (const obj of collect(body, loc.path)) {
      if (obj === null) continue; // an optional object that is absent
      const versionField = loc.versionField ?? 'version';
      const stamp = isJsonObject(obj) ? obj[versionField] : undefined;
      const objectVersion = stamp === undefined || stamp === null ? policy.unstampedVersion : stamp;
      if (!isJsonObject(obj) || !Number.isSafeInteger(objectVersion)) {
        throw new GatewayError('UPSTREAM_UNAVAILABLE', `the backend answered with a ${loc.type} that does not carry the schema version it was saved under`, {
          reason: `${loc.type} without an integer ${versionField}`,
        });
      }
      // Translated up from a backend that stamps nothing: the client's version says where its objects carry the stamp.
      if (objectVersion !== stamp && plan.version > plan.head) obj[versionField] = objectVersion as number;
      // A listing row without the object's content is a reference: served whatever version it was saved under.
      if (loc.listing && !(loc.listing.content !== undefined && getAt(obj, loc.listing.content).found)) continue;
      const saved = objectVersion as number;
      if (saved <= plan.version) continue;
      const history = plan.kinds?.get(loc.type);
      // A plan that knows nothing of the kind cannot tell whether it changed: refused.
      if (!history) throw refusal(plan, loc, obj, saved, policy);
      const decision = decideObject(policy, plan.head, plan.version, saved, history.changedAt);
      if (decision === 'refuse') throw refusal(plan, loc, obj, saved, policy);
      if (decision !== 'check') continue;
      if (history.noWayBack !== undefined) throw refusal(plan, loc, obj, saved, policy, { fields: [], reason: history.noWayBack });
      (checks ??= []).push({ loc, obj, objectVersion: saved, history });
    }
  }
  return checks;
}

/** The round trip of each pending object (lossless rule): 409 naming the fields the client's version cannot carry. */
export async function checkRoundTrips(plan: MethodPlan, checks: readonly PendingCheck[], ctx: MigrationContext, policy: GuardPolicy = DEFAULT_POLICY): Promise<void> {
  for (const c of checks) {
    const lost = await lostFields(c.history, c.obj, ctx);
    if (lost.fields.length > 0 || lost.reason !== undefined) throw refusal(plan, c.loc, c.obj, c.objectVersion, policy, lost);
  }
}

/** A successful head-shaped response → the client's version (after the object-version guard). */
export async function translateResponse(plan: MethodPlan, body: unknown, ctx: MigrationContext, policy: GuardPolicy = DEFAULT_POLICY): Promise<unknown> {
  const checks = guardObjects(plan, body, policy);
  if (checks) await checkRoundTrips(plan, checks, ctx, policy);
  if (plan.down.length === 0 || !(isJsonObject(body) || (Array.isArray(body) && locatesElements(plan.guarded)))) return body;
  return run(plan, plan.down, body as Json, ctx);
}
