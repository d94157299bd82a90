import { analyze, analyzeHtml, checks, FetchError } from '../src/index.js';
try {
  const page = await analyze('http://127.0.0.1:9/', { signal: AbortSignal.timeout(30_000) });
  console.log(page.url, page.result);
  for (const check of checks) console.log(check.name, page.results[check.name].passed);
} catch (error) {
  if (error instanceof FetchError) console.error(error.reason, error.message);
  else throw error;
}
const local = analyzeHtml('<html lang="en"><head><title>Blue widgets</title></head><body>…</body></html>', {
  url: 'https://example.com/widgets',
  headers: { 'content-encoding': 'br', server: 'nginx' },
  robotsTxt: 'User-agent: *\nDisallow: /private/',
});
console.log(local.results.title.value, local.results.title.passed, local.result, checks.length);
