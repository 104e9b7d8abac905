// Translation on the bytes (issue 34 item 2): a plan's answer migration as data, applied in one pass over the answer.
// Not wired into the engine yet: it measured slower than JSON.parse + the field operations + JSON.stringify on the
// dashboard answer (BENCHMARKS.md, "Translation on the bytes"), so answers still take the buffered path.

export { declareEdits, editsOf } from './declared.js';
export { type FromPlan, programFor } from './from-plan.js';
export { type FallbackReason, MAX_DEPTH } from './node.js';
export { type ByteOp, type Program, type Step, programOf } from './program.js';
export { type FallbackCounts, type RewriteResult, countFallback, rewrite } from './rewrite.js';
export type { Condition, Edit } from './rules.js';
export type { Stamp } from './stamps.js';
