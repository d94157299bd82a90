// A digest as a mail (docs/monitors-and-mail.md#digests): a pure function of the figures. Both parts
// say the same: the website's domain, the period, visitors and pageviews with the change on the
// period before, the top pages, referrers and countries (named as the share page names them,
// with the DB-IP credit its licence asks for), and the link to the share page. The HTML part
// uses inline styles and tables only (what mail clients render), no image and no script; every
// value goes through the `html` tag, and the text part drops control characters, because pages
// and referrers are whatever the internet sent.
import type { DigestPeriod } from '../config.js';
import type { MailMessage } from '../mail/mail-message.js';
import { Privacy } from '../model/privacy.js';
import { formatDay, truncate } from '../render/format.js';
import { html, type SafeHtml } from '../render/html.js';
import { countryLabel } from '../render/traffic.js';
import { formatCount } from '../render/traffic-chart.js';
import type { Period } from './periods.js';

/** Rows of each top list in a digest. */
export const DIGEST_TOP = 5;

export interface DigestList {
  /** Values the period has in all (the first DIGEST_TOP are in `rows`). */
  total: number;
  rows: readonly { value: string; count: number }[];
}

export interface DigestFigures {
  visitors: number;
  pageviews: number;
  previous: { visitors: number; pageviews: number };
  pages: DigestList;
  referrers: DigestList;
  countries: DigestList;
}

export interface DigestInput {
  websiteId: number;
  domain: string;
  privacy: Privacy;
  recipient: string;
  /** Absolute URL of the website's share page. */
  shareUrl: string;
  period: Period;
  figures: DigestFigures;
}

const WORDS: Record<DigestPeriod, { title: string; before: string }> = {
  daily: { title: 'Daily', before: 'the day before' },
  weekly: { title: 'Weekly', before: 'the week before' },
  monthly: { title: 'Monthly', before: 'the month before' },
};

const MONTH = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'long', year: 'numeric' });
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** "4 May 2026", "27 Apr 2026 to 3 May 2026", "April 2026". */
export function periodLabel(period: Period): string {
  if (period.kind === 'daily') return formatDay(dayMs(period.start));
  if (period.kind === 'monthly') return MONTH.format(dayMs(period.start));
  return `${formatDay(dayMs(period.start))} to ${formatDay(dayMs(period.last))}`;
}

/**
 * The change on the period before, in whole percent; 0 when both are 0, null when only the
 * period before is 0 (growth from nothing has no percentage).
 */
export function changePercent(current: number, previous: number): number | null {
  if (previous === 0) return current === 0 ? 0 : null;
  return Math.round(((current - previous) / previous) * 100);
}

/** "+12% on the week before (1,100)", "up from none the week before", "the same as the week before". */
export function changeText(current: number, previous: number, kind: DigestPeriod): string {
  const before = WORDS[kind].before;
  const percent = changePercent(current, previous);
  if (percent === null) return `up from none ${before}`;
  if (current === previous) return `the same as ${before}`;
  const sign = current > previous ? '+' : '−';
  return `${sign}${Math.abs(percent)}% on ${before} (${formatCount(previous)})`;
}

/** A value as plain text: no control or direction-changing characters, at most `max` characters. */
function plain(value: string, max = 120): string {
  return truncate(value.replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, '\uFFFD'), max);
}

interface Section {
  title: string;
  column: string;
  unit: string;
  list: DigestList;
  label: (value: string) => string;
  credit: boolean;
}

function sections(f: DigestFigures): Section[] {
  return [
    { title: 'Top pages', column: 'Page', unit: 'Pageviews', list: f.pages, label: (v) => v, credit: false },
    { title: 'Top referrers', column: 'Referrer', unit: 'Visitors', list: f.referrers, label: (v) => v, credit: false },
    { title: 'Countries', column: 'Country', unit: 'Visitors', list: f.countries, label: countryLabel, credit: true },
  ];
}

const CREDIT_TEXT = 'IP Geolocation by DB-IP (https://db-ip.com)';

function privacyNote(privacy: Privacy): string {
  if (privacy === Privacy.Public) return 'The share page is public.';
  if (privacy === Privacy.Password) return 'The share page asks for the website’s password.';
  return 'The share page is private: it opens once the website’s privacy is public (0) or password (2).';
}

export function renderDigest(input: DigestInput): MailMessage {
  const { period } = input;
  const words = WORDS[period.kind];
  const range = periodLabel(period);
  const domain = plain(input.domain, 255);
  const subject = `${words.title} report for ${domain}: ${range}`;
  return { to: input.recipient, subject, text: renderText(input, subject, range), html: renderHtml(input, subject, range).value };
}

function renderText(input: DigestInput, subject: string, range: string): string {
  const { period, figures: f } = input;
  const lines: string[] = [subject, `${range} (UTC)`, ''];
  const width = Math.max(formatCount(f.visitors).length, formatCount(f.pageviews).length);
  lines.push(
    `Visitors   ${formatCount(f.visitors).padStart(width)}   ${changeText(f.visitors, f.previous.visitors, period.kind)}`,
  );
  lines.push(
    `Pageviews  ${formatCount(f.pageviews).padStart(width)}   ${changeText(f.pageviews, f.previous.pageviews, period.kind)}`,
  );
  for (const s of sections(f)) {
    lines.push('', `${s.title} (${s.unit.toLowerCase()})`);
    if (s.list.rows.length === 0) {
      lines.push('  None in this period.');
      continue;
    }
    const counts = s.list.rows.map((r) => formatCount(r.count));
    const w = Math.max(...counts.map((c) => c.length));
    s.list.rows.forEach((r, i) => {
      lines.push(`  ${counts[i].padStart(w)}  ${plain(s.label(r.value))}`);
    });
    const more = s.list.total - s.list.rows.length;
    if (more > 0) lines.push(`  and ${formatCount(more)} more`);
    if (s.credit) lines.push(`  ${CREDIT_TEXT}`);
  }
  lines.push(
    '',
    `Every figure, day by day: ${input.shareUrl}`,
    privacyNote(input.privacy),
    '',
    '-- ',
    `You receive this e-mail because e-mail reports are on for ${plain(input.domain, 255)} (website ${input.websiteId}).`,
    `To stop them, set the website's email option to 0 (PUT /api/v1/websites/${input.websiteId} with email=0).`,
    '',
  );
  return lines.join('\n');
}

// Styles, inline (mail clients drop <style> blocks and external sheets).
const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const S = {
  body: 'margin:0;padding:0;background:#f3f4f6;',
  outer: 'background:#f3f4f6;',
  card: `max-width:600px;background:#ffffff;border:1px solid #d9dde3;border-radius:8px;${FONT}color:#1f2328;`,
  h1: `margin:0 0 4px 0;font-size:20px;line-height:1.3;font-weight:700;${FONT}color:#1f2328;`,
  range: `margin:0 0 20px 0;font-size:14px;color:#57606a;${FONT}`,
  totalCell: 'padding:12px 16px;background:#f6f8fa;border:1px solid #e5e7eb;border-radius:6px;vertical-align:top;',
  totalLabel: `margin:0;font-size:13px;color:#57606a;${FONT}`,
  totalValue: `margin:4px 0;font-size:26px;font-weight:700;color:#1f2328;${FONT}`,
  change: `margin:0;font-size:13px;color:#57606a;${FONT}`,
  h2: `margin:24px 0 8px 0;font-size:16px;font-weight:700;color:#1f2328;${FONT}`,
  th: `padding:6px 8px;border-bottom:2px solid #d9dde3;font-size:12px;text-align:left;color:#57606a;${FONT}`,
  thNum: `padding:6px 8px;border-bottom:2px solid #d9dde3;font-size:12px;text-align:right;color:#57606a;${FONT}`,
  td: `padding:6px 8px;border-bottom:1px solid #eaecef;font-size:14px;color:#1f2328;word-break:break-all;${FONT}`,
  tdNum: `padding:6px 8px;border-bottom:1px solid #eaecef;font-size:14px;text-align:right;white-space:nowrap;color:#1f2328;${FONT}`,
  muted: `margin:6px 0 0 0;font-size:13px;color:#57606a;${FONT}`,
  credit: `margin:6px 0 0 0;font-size:12px;color:#57606a;${FONT}`,
  link: 'color:#0a58ca;',
  button: `display:inline-block;padding:10px 18px;background:#0a58ca;color:#ffffff;text-decoration:none;border-radius:6px;font-size:15px;font-weight:600;${FONT}`,
  footer: `margin:24px 0 0 0;padding-top:12px;border-top:1px solid #eaecef;font-size:12px;color:#57606a;${FONT}`,
};

function total(label: string, value: number, previous: number, kind: DigestPeriod): SafeHtml {
  return html`<td style="${S.totalCell}" width="50%">
<p style="${S.totalLabel}">${label}</p>
<p style="${S.totalValue}">${formatCount(value)}</p>
<p style="${S.change}">${changeText(value, previous, kind)}</p>
</td>`;
}

function section(s: Section): SafeHtml {
  const more = s.list.total - s.list.rows.length;
  const body =
    s.list.rows.length === 0
      ? html`<p style="${S.muted}">None in this period.</p>`
      : html`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;">
<tr><th style="${S.th}">${s.column}</th><th style="${S.thNum}">${s.unit}</th></tr>
${s.list.rows.map((r) => html`<tr><td style="${S.td}">${truncate(s.label(r.value), 300)}</td><td style="${S.tdNum}">${formatCount(r.count)}</td></tr>`)}
</table>
${more > 0 ? html`<p style="${S.muted}">and ${formatCount(more)} more</p>` : ''}`;
  return html`<h2 style="${S.h2}">${s.title}</h2>
${body}
${s.credit && s.list.rows.length > 0 ? html`<p style="${S.credit}"><a href="https://db-ip.com" style="${S.link}">IP Geolocation by DB-IP</a></p>` : ''}`;
}

function renderHtml(input: DigestInput, subject: string, range: string): SafeHtml {
  const { period, figures: f } = input;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${subject}</title>
</head>
<body style="${S.body}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="${S.outer}"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="${S.card}"><tr><td style="padding:24px;">
<h1 style="${S.h1}">${WORDS[period.kind].title} report for ${input.domain}</h1>
<p style="${S.range}">${range} (UTC)</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="8" style="border-collapse:separate;">
<tr>${total('Visitors', f.visitors, f.previous.visitors, period.kind)}${total('Pageviews', f.pageviews, f.previous.pageviews, period.kind)}</tr>
</table>
${sections(f).map(section)}
<p style="margin:28px 0 8px 0;"><a href="${input.shareUrl}" style="${S.button}">See every figure on the share page</a></p>
<p style="${S.muted}">${privacyNote(input.privacy)} <a href="${input.shareUrl}" style="${S.link}">${input.shareUrl}</a></p>
<p style="${S.footer}">You receive this e-mail because e-mail reports are on for ${input.domain} (website ${input.websiteId}). To stop them, set the website’s email option to 0 (<code>PUT /api/v1/websites/${input.websiteId}</code> with <code>email=0</code>).</p>
</td></tr></table>
</td></tr></table>
</body>
</html>
`;
}
