// The alert a monitor's run sends to the account's e-mail: the page, its score before and after,
// every check that changed (id, title, passed before and now, how to fix it), and a link to the
// report's share page. A pure function of its input; both parts say the same. The HTML part has
// inline styles only, no images and no scripts, and every value in it is escaped (page URLs and
// titles come from arbitrary web pages).

import type { MonitorFrequency } from '../model/schedule.js';
import type { MailMessage } from '../mail/mail-message.js';
import { Privacy } from '../model/privacy.js';
import { formatDateTime, parseTimestamp, truncate } from '../render/format.js';
import { html, type SafeHtml } from '../render/html.js';
import { sharePath } from '../render/share-path.js';
import { checkFix, checkTitle, type RunComparison } from './alert.js';

export interface AlertMailInput {
  to: string;
  /** APP_URL, without a trailing slash. */
  appUrl: string;
  report: { id: number; url: string; privacy: Privacy };
  monitor: { id: number; frequency: MonitorFrequency; alert_drop: number };
  comparison: Pick<RunComparison, 'before' | 'after' | 'changes' | 'scoreDropped' | 'highRegressions'>;
  /** When the run before and this run analysed the page (stored timestamps). */
  previousGeneratedAt: string;
  generatedAt: string;
}

const yesNo = (passed: boolean) => (passed ? 'passed' : 'failed');

function when(timestamp: string): string {
  const ms = parseTimestamp(timestamp);
  return ms === null ? 'an unknown time' : formatDateTime(ms);
}

/** "fell by 12 points", "rose by 1 point", "did not change". */
function movement(before: number, after: number): string {
  const delta = after - before;
  if (delta === 0) return 'did not change';
  const points = Math.abs(delta) === 1 ? 'point' : 'points';
  return `${delta < 0 ? 'fell' : 'rose'} by ${Math.abs(delta)} ${points}`;
}

function subjectOf(input: AlertMailInput, url: string): string {
  const { before, after, highRegressions } = input.comparison;
  const parts: string[] = [];
  if (after < before) parts.push(`score ${before} → ${after}`);
  if (highRegressions.length === 1) parts.push(`${checkTitle(highRegressions[0])} now fails`);
  else if (highRegressions.length > 1) parts.push(`${highRegressions.length} high-importance checks now fail`);
  if (parts.length === 0) parts.push(`score ${before} → ${after}`);
  // One line, whatever the page's URL holds.
  return `Rankscope alert: ${truncate(url, 80)}: ${parts.join(', ')}`.replace(/[\r\n\t]+/g, ' ');
}

const FONT = 'font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;';
const CELL = 'padding:8px 10px;border-top:1px solid #d8dde3;vertical-align:top;text-align:left;';

export function alertMail(input: AlertMailInput): MailMessage {
  const { report, monitor, comparison } = input;
  const url = String(report.url).replace(/[\r\n\t]+/g, ' ');
  const link = `${input.appUrl}${sharePath('report', report.id)}`;
  const { before, after, changes, scoreDropped, highRegressions } = comparison;
  // Newly failing checks first: they are what the reader has to act on.
  const ordered = [...changes.filter((c) => !c.passed), ...changes.filter((c) => c.passed)];
  const privateNote =
    report.privacy === Privacy.Private
      ? 'The report is private, so its share page opens only once you make it public or password-protected.'
      : null;
  const why: string[] = [];
  if (scoreDropped) {
    why.push(`the score fell by ${before - after} points (this monitor alerts at a fall of ${monitor.alert_drop} or more)`);
  }
  if (highRegressions.length > 0) {
    why.push(
      `${highRegressions.length === 1 ? 'a high-importance check' : `${highRegressions.length} high-importance checks`} went from passed to failed`,
    );
  }
  const reason = `This alert was sent because ${why.join(', and ')}.`;
  const intro = `Monitor #${monitor.id} (${monitor.frequency}) re-ran the report of ${url} at ${when(input.generatedAt)}.`;
  const scoreLine = `Score: ${before} → ${after} (it ${movement(before, after)} since the run of ${when(input.previousGeneratedAt)}).`;
  const footer = `You get this mail because monitor #${monitor.id} has e-mail alerts on. To stop them, set its email to 0 (PUT /api/v1/monitors/${monitor.id} with email=0).`;

  const textChecks = ordered.map((c) => {
    const fix = !c.passed ? checkFix(c.id) : null;
    return [
      `- ${c.id}: ${checkTitle(c.id)} (${c.importance} importance)`,
      `  Before: ${yesNo(c.passed_before)}. Now: ${yesNo(c.passed)}.`,
      ...(fix ? [`  How to fix: ${fix}`] : []),
    ].join('\n');
  });
  const text = [
    intro,
    '',
    scoreLine,
    reason,
    '',
    ordered.length === 0 ? 'No check changed between the two runs.' : 'Checks that changed:',
    ...(ordered.length === 0 ? [] : ['', textChecks.join('\n\n')]),
    '',
    `The report: ${link}`,
    ...(privateNote ? [privateNote] : []),
    '',
    footer,
    '',
  ].join('\n');

  const rows = ordered.map((c) => {
    const fix = !c.passed ? checkFix(c.id) : null;
    const colour = c.passed ? '#1a7f37' : '#b42318';
    return html`<tr>
<td style="${CELL}"><strong>${checkTitle(c.id)}</strong><br><code style="font-size:12px;color:#57606a">${c.id}</code> · ${c.importance} importance${
      fix ? html`<br><span style="color:#24292f"><strong>How to fix:</strong> ${fix}</span>` : ''
    }</td>
<td style="${CELL}white-space:nowrap">${yesNo(c.passed_before)}</td>
<td style="${CELL}white-space:nowrap;color:${colour};font-weight:bold">${yesNo(c.passed)}</td>
</tr>`;
  });
  const table: SafeHtml | string =
    ordered.length === 0
      ? html`<p style="margin:0 0 16px">No check changed between the two runs.</p>`
      : html`<table role="presentation" cellspacing="0" cellpadding="0" style="border-collapse:collapse;width:100%;margin:0 0 16px;font-size:14px">
<thead><tr><th style="${CELL}border-top:0">Check</th><th style="${CELL}border-top:0">Before</th><th style="${CELL}border-top:0">Now</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
  const htmlPart = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Rankscope alert</title></head>
<body style="margin:0;padding:24px;background:#f6f8fa;color:#24292f;${FONT}">
<div style="max-width:640px;margin:0 auto;background:#ffffff;border:1px solid #d8dde3;border-radius:8px;padding:24px">
<h1 style="font-size:20px;margin:0 0 12px">Score alert</h1>
<p style="margin:0 0 12px">${intro}</p>
<p style="margin:0 0 12px;font-size:18px"><strong>Score: ${before} → ${after}</strong> <span style="color:#57606a;font-size:14px">(it ${movement(before, after)} since the run of ${when(input.previousGeneratedAt)})</span></p>
<p style="margin:0 0 16px">${reason}</p>
${ordered.length === 0 ? '' : html`<h2 style="font-size:16px;margin:0 0 8px">Checks that changed</h2>`}
${table}
<p style="margin:0 0 12px"><a href="${link}" style="color:#0969da">Open the report</a> (${link})</p>
${privateNote ? html`<p style="margin:0 0 12px;color:#57606a;font-size:13px">${privateNote}</p>` : ''}
<p style="margin:16px 0 0;color:#57606a;font-size:12px">${footer}</p>
</div>
</body></html>
`;

  return { to: input.to, subject: subjectOf(input, url), text, html: htmlPart.toString() };
}
