// The docs stay short, linked and self-contained: the README is at most 300 lines, every
// relative link in the Markdown resolves (file and heading), every variable src/config.ts
// reads is in the README's configuration table and in docs/configuration.md, and no file
// refers to documents outside the repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';

const ROOT = resolve('.');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Top-level Markdown, bench/README.md and docs/*.md, as paths relative to the root. */
function markdownFiles(): string[] {
  const top = readdirSync(ROOT).filter((f) => f.endsWith('.md'));
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return [...top, 'bench/README.md', ...docs];
}

/** The text outside fenced code blocks, with inline code spans blanked (their links are examples). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));
}

/** GitHub's heading anchors (github-slugger): lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const plain = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/`/g, '')
      .replace(/<[^>]+>/g, '');
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) slugs.add(id);
  return slugs;
}

/** Every link target of a Markdown text: inline links and images, outside code. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

test('the README is at most 300 lines', () => {
  const text = read('README.md');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  assert.ok(lines <= 300, `README.md has ${lines} lines; the manual belongs in docs/`);
});

test('every relative link in the Markdown points to a file, and to a heading of it', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of markdownFiles()) {
    for (const target of linkTargets(read(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      checked++;
      const [path, anchor] = target.split('#', 2) as [string, string | undefined];
      const resolved = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(path));
      if (!existsSync(resolved)) {
        broken.push(`${file}: ${target} (no such file)`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(resolved).isDirectory() || extname(resolved) !== '.md') {
        broken.push(`${file}: ${target} (an anchor into a file that is not Markdown)`);
        continue;
      }
      if (!headingSlugs(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor)))
        broken.push(`${file}: ${target} (no heading #${anchor} in ${relative(ROOT, resolved)})`);
    }
  }
  assert.ok(checked > 100, `only ${checked} relative links found: the link parser is broken`);
  assert.deepEqual(broken, []);
});

test('the slugs are GitHub’s', () => {
  const slugs = headingSlugs(
    [
      '# SSRF: the address guard',
      "## Plausible's trackers",
      '## `analyze.ts`: engine speed, against a peer',
      '## 3. Defaults (all configurable)',
      '## Limits',
      '## Limits',
      '```sh',
      '# not a heading',
      '```',
    ].join('\n'),
  );
  assert.deepEqual(
    [...slugs],
    [
      'ssrf-the-address-guard',
      'plausibles-trackers',
      'analyzets-engine-speed-against-a-peer',
      '3-defaults-all-configurable',
      'limits',
      'limits-1',
    ],
  );
});

/** The names src/config.ts reads through its EnvReader. */
function configVariables(): string[] {
  const source = read('src/config.ts');
  const names = [
    ...source.matchAll(/\br\.(?:string|optionalString|int|number|bool|oneOf|list|custom)\(\s*'([A-Z][A-Z0-9_]*)'/g),
  ].map((m) => m[1]);
  return [...new Set(names)].sort();
}

/** The first cell of every table row in a Markdown text, with the variable names it holds. */
function tableVariables(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]));
}

test('every variable src/config.ts reads has one line in the README’s configuration table', () => {
  const variables = configVariables();
  assert.ok(variables.length >= 50, `only ${variables.length} variables found in src/config.ts: the pattern is broken`);
  const readme = read('README.md');
  const section = readme.slice(
    readme.indexOf('\n## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('\n## Configuration') + 1),
  );
  const rows = tableVariables(section);
  const missing = variables.filter((name) => !rows.some((cell) => cell.includes(name)));
  assert.deepEqual(missing, [], 'variables missing from the README’s configuration table');
  const shared = rows.filter((cell) => cell.length > 1).map((cell) => cell.join(', '));
  assert.deepEqual(shared, [], 'one variable per line');
  for (const name of variables)
    assert.match(
      section,
      new RegExp(`\\| \`${name}\` +\\|[^\\n]*\\]\\(docs/configuration\\.md#`),
      `${name} links to its section`,
    );
});

test('every variable src/config.ts reads is documented in docs/configuration.md', () => {
  const rows = tableVariables(read('docs/configuration.md'));
  const missing = configVariables().filter((name) => !rows.some((cell) => cell.includes(name)));
  assert.deepEqual(missing, []);
});

const TEXT = new Set([
  '.ts',
  '.mts',
  '.mjs',
  '.cjs',
  '.js',
  '.json',
  '.md',
  '.html',
  '.css',
  '.txt',
  '.yml',
  '.yaml',
  '.sh',
  '.tsv',
  '.xml',
]);

function textFiles(dir: string): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return textFiles(path);
    return TEXT.has(extname(e.name)) ? [path] : [];
  });
}

test('no file refers to documents outside the repository', () => {
  // Built from parts, so that this file does not match itself.
  const outside = [['..', 'shared'].join('/'), ['the', 'contract'].join(' '), ['contract', 'md'].join('.')];
  const files = [
    ...['src', 'docs', 'test', 'bench', 'scripts'].flatMap(textFiles),
    ...readdirSync(ROOT).filter((f) => f.endsWith('.md')),
  ];
  assert.ok(files.length > 100, `only ${files.length} files searched`);
  const found: string[] = [];
  for (const file of files) {
    const lines = read(file).split('\n');
    lines.forEach((line, i) => {
      const lower = line.toLowerCase();
      for (const needle of outside) if (lower.includes(needle)) found.push(`${file}:${i + 1}: ${needle}`);
    });
  }
  assert.deepEqual(found, []);
});
