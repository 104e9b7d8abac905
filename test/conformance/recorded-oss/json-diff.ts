// The JSON paths where two answers differ, in the recordings' `bodyDiff` words: "$.a.b: only in public",
// "$.a: only in ours", "$.a: <public> (public) vs <ours> (ours)".

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const short = (v: unknown) => JSON.stringify(v)?.slice(0, 60);

export function jsonDifferences(expected: unknown, ours: unknown, path = '$'): string[] {
  if (isObject(expected) && isObject(ours)) {
    const out: string[] = [];
    for (const key of new Set([...Object.keys(expected), ...Object.keys(ours)])) {
      if (!(key in ours)) out.push(`${path}.${key}: only in public`);
      else if (!(key in expected)) out.push(`${path}.${key}: only in ours`);
      else out.push(...jsonDifferences(expected[key], ours[key], `${path}.${key}`));
    }
    return out;
  }
  if (Array.isArray(expected) && Array.isArray(ours)) {
    if (expected.length !== ours.length) return [`${path}: ${expected.length} items (public) vs ${ours.length} (ours)`];
    return expected.flatMap((item, i) => jsonDifferences(item, ours[i], `${path}[${i}]`));
  }
  return JSON.stringify(expected) === JSON.stringify(ours) ? [] : [`${path}: ${short(expected)} (public) vs ${short(ours)} (ours)`];
}
