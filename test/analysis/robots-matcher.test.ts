// The compiled robots.txt matcher: the same answers as the algorithm it replaced, in work
// linear in the path. The bound is asserted on counted comparisons, not on time, so the test
// is deterministic on a loaded machine (timings belong in bench/).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compilePattern, matchesPath, type StepMeter } from '../../src/analysis/robots-pattern.js';
import { compileRobots, decidingRule, normalise, patternMatches, rulesFor, type RobotsRule } from '../../src/analysis/robots.js';

// ---- The oracle: the matcher as it was before compilation (O(pattern × path)). ----

/** `steps` counts the end positions it visits, the work that made it quadratic. */
function oldPatternMatches(pattern: string, path: string, meter?: StepMeter): boolean {
  let ends = [0];
  for (let p = 0; p < pattern.length; p++) {
    const c = pattern[p];
    if (c === '$' && p === pattern.length - 1) return ends[ends.length - 1] === path.length;
    if (c === '*') {
      const from = ends[0];
      ends = [];
      for (let e = from; e <= path.length; e++) ends.push(e);
      if (meter) meter.steps += ends.length;
    } else {
      const next: number[] = [];
      for (const e of ends) if (e < path.length && path[e] === c) next.push(e + 1);
      if (meter) meter.steps += ends.length;
      if (next.length === 0) return false;
      ends = next;
    }
  }
  return true;
}

function oldDecidingRule(rules: RobotsRule[], pathAndQuery: string): RobotsRule | null {
  const path = normalise(pathAndQuery);
  let best: RobotsRule | null = null;
  for (const rule of rules) {
    if (!oldPatternMatches(rule.pattern, path)) continue;
    if (
      best === null ||
      rule.pattern.length > best.pattern.length ||
      (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)
    ) {
      best = rule;
    }
  }
  return best;
}

// ---- Equivalence on a small alphabet, where overlaps, anchors and ties are frequent. ----

const pattern = fc.string({ unit: fc.constantFrom('/', 'a', 'b', '*', '$'), maxLength: 10 });
// A normalised path may hold `*` and `$` too; there they are plain characters.
const path = fc.string({ unit: fc.constantFrom('/', 'a', 'b', 'a', 'b', '*', '$'), maxLength: 14 });
// `%61` normalises to `a`: rules written differently can tie on the same pattern.
const written = fc.string({ unit: fc.constantFrom('/', 'a', 'b', '*', '$', '%61'), maxLength: 8 });
const rule = fc
  .tuple(
    fc.boolean(),
    written.filter((w) => w !== ''),
  )
  .map(([allow, w]): RobotsRule => ({ allow, pattern: normalise(w), written: w }));

test('property: the compiled matcher agrees with the old algorithm on every pattern and path', () => {
  fc.assert(
    fc.property(pattern, path, (p, s) => {
      assert.equal(patternMatches(p, s), oldPatternMatches(p, s), `pattern ${JSON.stringify(p)} path ${JSON.stringify(s)}`);
    }),
    { numRuns: 5000 },
  );
  // Two letters only: self-overlapping segments (`aab` in `aaab`), where a substring search
  // must fall back to the right partial match.
  const ab = (maxLength: number) => fc.string({ unit: fc.constantFrom('a', 'b'), maxLength });
  const wildcards = fc
    .tuple(fc.array(ab(6), { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([parts, anchored]) => `*${parts.join('*')}${anchored ? '$' : ''}`);
  fc.assert(
    fc.property(wildcards, ab(20), (p, s) => {
      assert.equal(patternMatches(p, s), oldPatternMatches(p, s), `pattern ${JSON.stringify(p)} path ${JSON.stringify(s)}`);
    }),
    { numRuns: 5000 },
  );
  // The corners, whatever the generator happens to draw.
  for (const p of ['', '*', '$', '*$', '$$', '**$', '/a$b', '/a*$', '/*a*', 'a**b$', '$*$']) {
    for (const s of ['', '/', '/a', '/a$', '/a$b', '/ab', 'a$', '$', '*$', 'ab']) {
      assert.equal(patternMatches(p, s), oldPatternMatches(p, s), `pattern ${JSON.stringify(p)} path ${JSON.stringify(s)}`);
    }
  }
});

test('property: the deciding rule is the old one, duplicates and ties included', () => {
  fc.assert(
    fc.property(fc.array(rule, { maxLength: 8 }), path, (rules, s) => {
      const expected = oldDecidingRule(rules, s);
      assert.equal(decidingRule(rules, s), expected);
      assert.equal(decidingRule([...rules, ...rules], s), expected, 'repeating the rules changes nothing');
    }),
    { numRuns: 3000 },
  );
});

test('property: compileRobots decides as the old matcher over the parsed rules', () => {
  const line = fc.oneof(
    fc.constantFrom('User-agent: *', 'User-agent: RankscopeBot', 'User-agent: other', '', '# c'),
    fc.tuple(fc.constantFrom('Allow', 'Disallow', 'disallow'), written).map(([f, w]) => `${f}: ${w}`),
  );
  fc.assert(
    fc.property(fc.array(line, { maxLength: 12 }), fc.array(path, { minLength: 1, maxLength: 5 }), (lines, paths) => {
      const body = lines.join('\n');
      const compiled = compileRobots(body, 'RankscopeBot');
      assert.deepEqual(compiled.rules, rulesFor(body, 'RankscopeBot'));
      // Identity, not equality: the deciding rule is the very one the old matcher picks.
      for (const s of paths) assert.equal(compiled.decidingRule(s), oldDecidingRule([...compiled.rules], s));
    }),
    { numRuns: 1000 },
  );
});

// ---- Work: linear in the path, where the old algorithm was quadratic. ----

/** The bound per rule: pattern.length + 2 × path.length comparisons (robots-pattern.ts). */
function bound(patternText: string, pathText: string): number {
  return patternText.length + 2 * pathText.length;
}

// Each input makes some algorithm quadratic: many `*`s for the old one (every `*` lists every
// end position), a long self-overlapping segment for a naive substring search.
const PATH = `/${'a'.repeat(15_000)}`;
const PATHOLOGICAL = [
  `/${'*a'.repeat(1_000)}*b`,
  `/*${'a'.repeat(1_000)}b`,
  `/*${'a'.repeat(1_000)}b*a$`,
  `/*${'a*'.repeat(500)}a$`,
];

test('a pathological pattern on a 15,000-character path costs comparisons linear in both', () => {
  for (const [i, p] of PATHOLOGICAL.entries()) {
    const meter = { steps: 0 };
    assert.equal(matchesPath(compilePattern(p), PATH, meter), i === 3);
    assert.ok(meter.steps > 0, 'the meter counts');
    assert.ok(meter.steps <= bound(p, PATH), `${p.slice(0, 12)}…: ${meter.steps} > ${bound(p, PATH)}`);
  }
  // The same inputs, counted for the old algorithm, are far past that bound: the test can fail.
  const old = { steps: 0 };
  oldPatternMatches(PATHOLOGICAL[0], PATH, old);
  assert.ok(old.steps > 100 * bound(PATHOLOGICAL[0], PATH), `old algorithm: ${old.steps} steps`);
});

test('a large robots.txt of wildcard rules: one parse, linear work per rule for a long path', () => {
  // ~500 KB of distinct wildcard rules, as in the report that froze the server.
  const patterns = Array.from({ length: 5_000 }, (_, i) => `/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*${i}`);
  const body = `User-agent: *\n${patterns.map((p) => `Disallow: ${p}\n`).join('')}`.repeat(2);
  assert.ok(body.length > 450_000);
  const robots = compileRobots(body, 'RankscopeBot');
  assert.equal(robots.rules.length, 10_000);

  const meter = { steps: 0 };
  assert.equal(robots.blockingPattern(`http://h.test${PATH}`, meter), null);
  const total = robots.rules.reduce((sum, r) => sum + bound(r.pattern, PATH), 0);
  assert.ok(meter.steps <= total, `${meter.steps} > ${total}`);

  // A rule that matches decides as before, and the compiled form answers for many URLs.
  const blocked = `http://h.test/${'a'.repeat(15_000)}4999`;
  assert.equal(robots.blockingPattern(blocked), '/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*4999');
  assert.equal(robots.blockingPattern('http://h.test/robots.txt'), null);
});
