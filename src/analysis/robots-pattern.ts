// One robots.txt path pattern (RFC 9309 §2.2.3), compiled once and matched in time linear in
// the path. A pattern is literal segments joined by `*`, matched against a prefix of the path,
// with a final `$` anchoring the end. Greedy left-most matching is exact here: taking each
// segment at its earliest occurrence leaves the most path for the segments after it. Segments
// are searched with Knuth–Morris–Pratt rather than indexOf so that the bound does not depend on
// the engine's string search, and so that a test can count the work done.

/** Counts the character comparisons of matching; tests use it to prove the linear bound. */
export interface StepMeter {
  steps: number;
}

interface Segment {
  text: string;
  /** KMP failure function: the longest proper border of `text.slice(0, i + 1)`. */
  border: Int32Array;
}

export interface CompiledPattern {
  /** The literal the path must start with. */
  head: string;
  /** Literals found in order after the head (those between `*`s, and the last one when not anchored). */
  segments: Segment[];
  /** With a final `$` after a `*`: the literal the path must end with, after the segments; else null. */
  tail: string | null;
  /** A final `$` and no `*`: the path must be exactly the head. */
  exact: boolean;
}

function segment(text: string): Segment {
  const border = new Int32Array(text.length);
  for (let i = 1, k = 0; i < text.length; i++) {
    while (k > 0 && text.charCodeAt(i) !== text.charCodeAt(k)) k = border[k - 1];
    if (text.charCodeAt(i) === text.charCodeAt(k)) k++;
    border[i] = k;
  }
  return { text, border };
}

/** `pattern` is normalised; only a final `$` anchors, any other `$` is a literal character. */
export function compilePattern(pattern: string): CompiledPattern {
  const anchored = pattern.endsWith('$');
  const parts = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const head = parts[0];
  if (parts.length === 1) return { head, segments: [], tail: null, exact: anchored };
  const middle = parts.slice(1, anchored ? -1 : undefined);
  return {
    head,
    // `**` leaves empty segments, which match anywhere.
    segments: middle.filter((text) => text !== '').map(segment),
    tail: anchored ? parts[parts.length - 1] : null,
    exact: false,
  };
}

/**
 * The end of the first occurrence of `seg` in `path` at or after `from`, or -1. Each
 * comparison either moves along the path or shortens the partial match, so at most
 * 2 × (path.length - from) comparisons.
 */
function findEnd(seg: Segment, path: string, from: number, meter: StepMeter | undefined): number {
  const { text, border } = seg;
  let steps = 0;
  let k = 0;
  let end = -1;
  for (let i = from; i < path.length; i++) {
    const c = path.charCodeAt(i);
    while (k > 0 && text.charCodeAt(k) !== c) {
      k = border[k - 1];
      steps++;
    }
    steps++;
    if (text.charCodeAt(k) === c && ++k === text.length) {
      end = i + 1;
      break;
    }
  }
  if (meter) meter.steps += steps;
  return end;
}

/**
 * Whether the compiled pattern matches a prefix of `path` (normalised). At most
 * pattern.length + 2 × path.length comparisons.
 */
export function matchesPath(compiled: CompiledPattern, path: string, meter?: StepMeter): boolean {
  const { head, segments, tail } = compiled;
  if (meter) meter.steps += head.length;
  if (!path.startsWith(head)) return false;
  if (compiled.exact) return path.length === head.length;
  let position = head.length;
  for (const seg of segments) {
    position = findEnd(seg, path, position, meter);
    if (position === -1) return false;
  }
  if (tail === null) return true;
  if (meter) meter.steps += tail.length;
  // The last `*` lets the tail start anywhere at or after where the segments ended.
  return path.length - tail.length >= position && path.endsWith(tail);
}
