// `rankscope analyze <url…> [--json] [--concurrency N] [--render]`: analyses pages with no server
// and no database. One URL: a readable summary, or the report as one JSON object with --json.
// Several URLs: one JSON object per line (JSON Lines), in the order given. --render runs the
// checks on the DOM Chromium built (docs/rendering.md), through the same guarded browser as the server.
import { parseArgs } from 'node:util';
import { normalizeTargetUrl, type PageRenderer } from '../analysis/analyze.js';
import { systemResolver } from '../analysis/fetch/address-guard.js';
import { RENDER_NEEDS_CHROMIUM, RenderError, Renderer } from '../browser/renderer.js';
import { analyze, CHECK_NAMES, describeCheck, FetchError, type AnalysedPage, type AnalysisConfig } from '../index.js';
import { loadAnalysisConfig, loadRenderSettings } from '../config.js';
import { bandOf, type Band } from '../analysis/score.js';
import type { CliIo } from './io.js';

const HELP = `Usage: rankscope analyze <url…> [--json] [--concurrency N] [--render]

Fetches and analyses web pages, without a server or a database. A bare host
(example.com) is fetched over https.

Options:
  --json             print the report as one JSON object:
                     {"url", "project", "result", "results", "generated_at"}
                     (and "rendered": true with --render)
  --concurrency N    pages analysed at the same time when several URLs are given
                     (1-32, default 4)
  --render           also load each page in headless Chromium (JavaScript on) and
                     run the checks on the DOM it built; status, headers, size and
                     load time stay those of the HTTP fetch. Needs Chromium at
                     CHROMIUM_PATH (default /usr/bin/chromium); RENDER_TIMEOUT and
                     RENDER_CONCURRENCY apply
  -h, --help         show this help

One URL prints a readable summary (score, band, and each of the checks with
a pass/fail mark and a one-line explanation), or the JSON object with --json.

Several URLs print one JSON object per line (JSON Lines), in the order the URLs
were given, whether or not --json is set. A page that could not be fetched
gives a line {"url": "<as given>", "error": {"reason": "...", "message": "..."}},
where reason is one of invalid_url, dns, refused, timeout, tls, too_large,
not_html, blocked_address, too_many_redirects, bad_status, bad_encoding,
network, render_<why> with --render (render_timeout, render_too_large,
render_page_crashed, render_crashed, render_navigation,
render_blocked_address, render_unavailable, render_busy), or internal for an
unexpected error.

Exit status: 0 when every page was analysed; 1 when at least one could not be
(each reason is also printed on stderr); 2 for a usage or settings error.

Settings come from the environment, e.g. ALLOW_PRIVATE_ADDRESSES=true to allow
loopback and private addresses, REQUEST_TIMEOUT (seconds), REQUEST_USER_AGENT.
`;

const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 32;

type Outcome = { page: AnalysedPage & { rendered?: true } } | { failure: { reason: string; message: string } };

interface Palette {
  pass: (s: string) => string;
  fail: (s: string) => string;
  band: (band: Band, s: string) => string;
  bold: (s: string) => string;
  dim: (s: string) => string;
}

function palette(io: CliIo, env: NodeJS.ProcessEnv): Palette {
  const isTty = (io.stdout as { isTTY?: boolean }).isTTY === true;
  const colour = isTty && (env.NO_COLOR === undefined || env.NO_COLOR === '');
  const sgr = (code: string) => (s: string) => (colour ? `\x1b[${code}m${s}\x1b[0m` : s);
  const green = sgr('32');
  const yellow = sgr('33');
  const red = sgr('31');
  return {
    pass: green,
    fail: red,
    band: (band, s) => (band === 'good' ? green(s) : band === 'decent' ? yellow(s) : red(s)),
    bold: sgr('1'),
    dim: sgr('2'),
  };
}

async function analyseOne(input: string, config: AnalysisConfig, render: PageRenderer | undefined): Promise<Outcome> {
  try {
    const page = await analyze(input, { config, render });
    return { page: render ? { ...page, rendered: true } : page };
  } catch (error) {
    if (error instanceof FetchError) return { failure: { reason: error.reason, message: error.message } };
    if (error instanceof RenderError) return { failure: { reason: `render_${error.reason}`, message: error.message } };
    const message = error instanceof Error ? error.message : String(error);
    return { failure: { reason: 'internal', message: `Unexpected error: ${message}` } };
  }
}

/** Runs `task` over `items`, at most `concurrency` at once, emitting results in input order. */
async function forEachOrdered<T, R>(
  items: T[],
  concurrency: number,
  task: (item: T) => Promise<R>,
  emit: (result: R, index: number) => void,
): Promise<void> {
  const done = new Map<number, R>();
  let started = 0;
  let emitted = 0;
  async function worker(): Promise<void> {
    while (started < items.length) {
      const index = started++;
      done.set(index, await task(items[index]));
      while (done.has(emitted)) {
        emit(done.get(emitted)!, emitted);
        done.delete(emitted);
        emitted++;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

function summary(page: AnalysedPage, input: string, config: AnalysisConfig, p: Palette): string {
  const band = bandOf(page.result, config.bands);
  const names = CHECK_NAMES.filter((name) => page.results[name] !== undefined);
  const width = Math.max(...names.map((name) => name.length));
  const passed = names.filter((name) => page.results[name].passed).length;
  const lines = [p.bold(page.url)];
  if (page.url !== normalizeTargetUrl(input).href) lines.push(p.dim(`requested ${input}`));
  if ((page as { rendered?: true }).rendered) lines.push(p.dim('checks run on the page as Chromium rendered it'));
  lines.push(
    `Score: ${p.band(band, `${page.result}/100 (${band})`)}  ·  ${passed} of ${names.length} checks passed  ·  project ${page.project}`,
    '',
  );
  for (const name of names) {
    const result = page.results[name];
    const mark = result.passed ? p.pass('✓') : p.fail('✗');
    lines.push(`${mark} ${name.padEnd(width)}  ${describeCheck(name, result, config)}`);
  }
  return `${lines.join('\n')}\n`;
}

function parseAnalyzeArgs(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      render: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

export async function runAnalyze(args: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseAnalyzeArgs>;
  try {
    parsed = parseAnalyzeArgs(args);
  } catch (error) {
    io.stderr.write(`rankscope analyze: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals: urls } = parsed;
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (urls.length === 0) {
    io.stderr.write(`rankscope analyze: give at least one URL\n\n${HELP}`);
    return 2;
  }
  let concurrency = DEFAULT_CONCURRENCY;
  if (values.concurrency !== undefined) {
    concurrency = /^\d+$/.test(values.concurrency) ? Number(values.concurrency) : NaN;
    if (!(concurrency >= 1 && concurrency <= MAX_CONCURRENCY)) {
      io.stderr.write(`rankscope analyze: --concurrency must be an integer from 1 to ${MAX_CONCURRENCY}\n`);
      return 2;
    }
  }
  let config: AnalysisConfig;
  try {
    config = loadAnalysisConfig();
  } catch (error) {
    io.stderr.write(`rankscope analyze: ${(error as Error).message}\n`);
    return 2;
  }

  let renderer: Renderer | undefined;
  if (values.render) {
    try {
      const settings = loadRenderSettings();
      renderer = new Renderer({
        executablePath: settings.chromiumPath,
        concurrency: settings.concurrency,
        timeoutMs: settings.timeoutSeconds * 1000,
        maxBytes: config.request.maxBodyBytes,
        userAgent: config.request.userAgent,
        policy: { allowPrivateAddresses: config.request.allowPrivateAddresses },
        resolver: systemResolver,
      });
    } catch (error) {
      io.stderr.write(`rankscope analyze: ${(error as Error).message}\n`);
      return 2;
    }
    if (!renderer.available()) {
      io.stderr.write(`rankscope analyze: ${RENDER_NEEDS_CHROMIUM}\n`);
      return 2;
    }
  }
  const browser = renderer;
  const render: PageRenderer | undefined = browser && ((url, signal) => browser.render(url, { account: 'cli', signal }));

  const jsonLines = urls.length > 1;
  const colours = palette(io, process.env);
  let failures = 0;
  try {
    await forEachOrdered(
      urls,
      concurrency,
      (url) => analyseOne(url, config, render),
      (outcome, index) => {
        const input = urls[index];
        if ('failure' in outcome) {
          failures++;
          io.stderr.write(`rankscope analyze: ${input}: ${outcome.failure.message}\n`);
          if (jsonLines) io.stdout.write(`${JSON.stringify({ url: input, error: outcome.failure })}\n`);
        } else if (jsonLines || values.json) {
          io.stdout.write(`${JSON.stringify(outcome.page)}\n`);
        } else {
          io.stdout.write(summary(outcome.page, input, config, colours));
        }
      },
    );
  } finally {
    await renderer?.close();
  }
  return failures === 0 ? 0 : 1;
}
