// A migration's result is awaited only when it is a promise: most steps answer at once, and each await costs a turn.

export const isPromiseLike = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';
