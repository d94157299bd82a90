// Engine speed over corpus A, without network: buildArtifacts + runChecks per page, next to a
// peer timed on the same pages in the same run (HTMLHint's default rules, bench/peer-htmlhint.ts).
// Run: npm run bench -- analyze [--rounds N]   (writes bench/results/analyze.md)

import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { buildArtifacts } from '../src/analysis/artifacts/index.js';
import { DEFAULT_CONFIG } from '../src/analysis/config.js';
import { runChecks } from '../src/analysis/run.js';
import { makeSnapshot } from '../src/analysis/snapshot.js';
import type { PageSnapshot } from '../src/analysis/types.js';
import { PAGES_DIR, corpusFiles, corpusSnapshot } from './corpus.js';
import { RESULTS } from './paths.js';
import { HTMLHINT_VERSION, htmlhintVerify } from './peer-htmlhint.js';

const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 9;
const WARMUP_ROUNDS = 2;
const MB = 1024 * 1024;

function analyse(snapshot: PageSnapshot): number {
  const start = process.hrtime.bigint();
  runChecks(snapshot, DEFAULT_CONFIG, buildArtifacts(snapshot.html, snapshot.finalUrl));
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function hint(html: string): number {
  const start = process.hrtime.bigint();
  htmlhintVerify(html);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const ENGINES = {
  ours: (file: string) => analyse(corpusSnapshot({ file, html: readFileSync(join(PAGES_DIR, file), 'utf8') })),
  peer: (file: string) => hint(readFileSync(join(PAGES_DIR, file), 'utf8')),
};

/**
 * One round: each engine over the whole corpus, one after the other (which goes first alternates
 * by round). Each page is read from disk just before it is timed (untimed). Engines take the
 * corpus in turns rather than page by page: each then collects its own garbage, instead of the
 * next page's timing paying for the other's.
 */
function round(r: number): { ours: number[]; peer: number[] } {
  const order = r % 2 === 0 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const);
  const times = { ours: [] as number[], peer: [] as number[] };
  for (const engine of order) for (const p of pages) times[engine].push(ENGINES[engine](p));
  return times;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** A 5 MB page of ordinary article markup: paragraphs, links, images, a few scripts. */
function syntheticPage(bytes: number): string {
  const block =
    '<div class="post"><h2>Section heading</h2><p>Lorem ipsum dolor sit amet, <a href="/read/more?id=1">consectetur</a> ' +
    'adipiscing elit, sed do <b>eiusmod</b> tempor incididunt ut labore et dolore magna aliqua.</p>' +
    '<img src="/img/photo.jpg" alt="A photo"><ul><li><a href="https://www.facebook.com/x">Share</a></li>' +
    '<li><a href="https://elsewhere.example/page" target="_blank">Elsewhere</a></li></ul>' +
    '<script>window.dataLayer = window.dataLayer || []; dataLayer.push({"event": "view"});</script></div>\n';
  const head =
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Synthetic five megabyte page</title>' +
    '<meta name="description" content="Synthetic"><link rel="stylesheet" href="/s.css"></head><body><h1>Synthetic</h1>\n';
  return `${head + block.repeat(Math.ceil((bytes - head.length) / block.length))}</body></html>`;
}

// Each page is read and made into a snapshot just before it is timed, so the process holds one
// page at a time, as a server does, and peak RSS measures the engine rather than the corpus.
const pages = corpusFiles();
const corpusBytes = pages.reduce((n, file) => n + statSync(join(PAGES_DIR, file)).size, 0);
const baselineRss = process.memoryUsage().rss;
// The machine is shared: the load when the run started says how quiet it was.
const loadAtStart = loadavg()[0];

for (let r = 0; r < WARMUP_ROUNDS; r++) round(r);

const perPage: number[] = [];
const roundTotals: number[] = [];
const peerPerPage: number[] = [];
const peerRoundTotals: number[] = [];
// Ours ÷ htmlhint per round: the two ran back to back, under the same load from the rest of the machine.
const roundRatios: number[] = [];
const sumOf = (times: number[]) => times.reduce((a, b) => a + b, 0);
for (let r = 0; r < ROUNDS; r++) {
  const { ours, peer } = round(r);
  perPage.push(...ours);
  peerPerPage.push(...peer);
  roundTotals.push(sumOf(ours));
  peerRoundTotals.push(sumOf(peer));
  roundRatios.push(sumOf(ours) / sumOf(peer));
}
for (const list of [perPage, roundTotals, peerPerPage, peerRoundTotals, roundRatios]) list.sort((a, b) => a - b);
const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)];

const corpusPeakRss = process.resourceUsage().maxRSS * 1024;
const big = makeSnapshot({ html: syntheticPage(5 * MB) });
analyse(big);
const bigTimes = Array.from({ length: 5 }, () => analyse(big)).sort((a, b) => a - b);

const peakRss = process.resourceUsage().maxRSS * 1024;

// Hostile 5 MB pages (no target; they must just stay in proportion): a million nested <div>s,
// and nested links, whose texts overlap (htmlparser2 nests <a> in <a>).
const hostileMs = {
  divs: analyse(makeSnapshot({ html: '<div>'.repeat(Math.floor((5 * MB) / 5)) })),
  links: analyse(makeSnapshot({ html: '<a href="/x">a'.repeat(Math.floor((5 * MB) / 14)) })),
};
const hostilePeakRss = process.resourceUsage().maxRSS * 1024;
const figures = {
  pages: pages.length,
  corpusMB: corpusBytes / MB,
  medianMs: quantile(perPage, 0.5),
  p95Ms: quantile(perPage, 0.95),
  maxMs: perPage[perPage.length - 1],
  pagesPerSecond: (pages.length * ROUNDS) / (perPage.reduce((a, b) => a + b, 0) / 1000),
  corpusMs: median(roundTotals),
  peerMedianMs: quantile(peerPerPage, 0.5),
  peerCorpusMs: median(peerRoundTotals),
  bigPageMB: Buffer.byteLength(big.html) / MB,
  bigPageMs: bigTimes[2],
  baselineRssMB: baselineRss / MB,
  corpusPeakRssMB: corpusPeakRss / MB,
  peakRssMB: peakRss / MB,
  hostilePeakRssMB: hostilePeakRss / MB,
};

// The comparison with the peer: the same pages, the same rounds, the same process.
const ratio = median(roundRatios);

// [figure, value, target met (null: no target)]
const targets: [string, string, boolean | null][] = [
  ['median per page', `${figures.medianMs.toFixed(2)} ms (target ≤ 5)`, figures.medianMs <= 5],
  ['p95 per page', `${figures.p95Ms.toFixed(2)} ms`, null],
  ['slowest page', `${figures.maxMs.toFixed(1)} ms`, null],
  ['pages per second', figures.pagesPerSecond.toFixed(0), null],
  ['whole corpus (median round)', `${(figures.corpusMs / 1000).toFixed(2)} s (target ≤ 3)`, figures.corpusMs <= 3000],
  [`htmlhint ${HTMLHINT_VERSION}, default rules: median per page`, `${figures.peerMedianMs.toFixed(2)} ms`, null],
  [
    `htmlhint ${HTMLHINT_VERSION}, default rules: whole corpus (median round)`,
    `${(figures.peerCorpusMs / 1000).toFixed(2)} s`,
    null,
  ],
  [
    '**ours ÷ htmlhint**, whole corpus (median of the rounds)',
    `**${ratio.toFixed(2)}** (rounds ${roundRatios[0].toFixed(2)}–${roundRatios[roundRatios.length - 1].toFixed(2)}; target ≤ 0.5)`,
    ratio <= 0.5,
  ],
  ['ours ÷ htmlhint, median page', (figures.medianMs / figures.peerMedianMs).toFixed(2), null],
  [
    `synthetic ${figures.bigPageMB.toFixed(1)} MB page`,
    `${figures.bigPageMs.toFixed(0)} ms (target ≤ 250)`,
    figures.bigPageMs <= 250,
  ],
  ['RSS before analysing (Node and the loaded code)', `${figures.baselineRssMB.toFixed(0)} MB`, null],
  ['peak RSS over the corpus rounds', `${figures.corpusPeakRssMB.toFixed(0)} MB`, null],
  ['peak RSS (corpus and synthetic page)', `${figures.peakRssMB.toFixed(0)} MB (target ≤ 200)`, figures.peakRssMB <= 200],
  ['hostile 5 MB page: a million nested `<div>`s', `${hostileMs.divs.toFixed(0)} ms`, null],
  ['hostile 5 MB page: 370,000 nested links', `${hostileMs.links.toFixed(0)} ms`, null],
  ['peak RSS after the hostile pages', `${figures.hostilePeakRssMB.toFixed(0)} MB`, null],
];

const report = [
  '# Engine benchmark (`bench/analyze.ts`)',
  '',
  `Corpus A: ${figures.pages} pages, ${figures.corpusMB.toFixed(1)} MB. Each page is read from disk and made into a snapshot with`,
  '`makeSnapshot` just before it is timed (untimed, no network), so the process holds one page at a time.',
  `Timed: \`buildArtifacts\` + \`runChecks\` per page, ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS} measured rounds;`,
  "the corpus time is the sum of its pages' times (median round); the synthetic page, the median of 5 runs.",
  `Peer: \`HTMLHint.verify(html)\` of htmlhint ${HTMLHINT_VERSION} with its default rules, on the same pages in the same rounds: each round`,
  'runs one engine over the corpus, then the other (which goes first alternates); the ratio divides our corpus time by its,',
  'round by round (the two ran back to back, under the same load), and keeps the median.',
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${process.execArgv.some((a) => a.includes('tsx')) ? 'from source through tsx' : 'compiled'};`,
  `load average ${loadAtStart.toFixed(2)} when the run started.`,
  '',
  '| Figure | Value | Target met |',
  '|---|---|---|',
  ...targets.map(([name, value, ok]) => `| ${name} | ${value} | ${ok === null ? '–' : ok ? 'yes' : '**no**'} |`),
  '',
].join('\n');

console.log(report);
writeFileSync(join(RESULTS, 'analyze.md'), report);
console.log(`ours ÷ htmlhint: ${ratio.toFixed(3)}`);
