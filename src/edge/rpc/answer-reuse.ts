// Answers translated down are kept (cache.translatedAnswers) under a key naming everything the translation read:
// the backend's bytes (their SHA-256 digest), the method and client version (the plan), and the guard's policy.
// A translation whose migrations consulted their context (a lookup, the caller, request state) is never kept.

import { createHash } from 'node:crypto';
import type { GuardPolicy } from '../../core/translate/guard.js';
import type { MethodPlan } from '../../core/translate/plan.js';

/** How an answer that was looked up went: served as kept, translated and kept, or translated and not keepable. */
export type AnswerReuse = 'reused' | 'translated' | 'not_reusable';

export function answerKey(plan: MethodPlan, policy: GuardPolicy, chunks: readonly Buffer[]): string {
  const digest = createHash('sha256');
  for (const chunk of chunks) digest.update(chunk);
  return `${plan.version} ${plan.method} ${policy.olderClients} ${policy.releasedThrough} ${digest.digest('base64url')}`;
}

/** The buffered answer as one buffer (most small answers come in one chunk). */
export const joined = (chunks: readonly Buffer[], size: number): Buffer =>
  chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks as Buffer[], size);
