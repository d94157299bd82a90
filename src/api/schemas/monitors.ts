import { Type } from '@sinclair/typebox';
import { FREQUENCIES } from '../../model/schedule.js';
import { IntegerEnum, Page, PerPage, StringEnum } from '../../http/schemas.js';

const Frequency = StringEnum(FREQUENCIES, { description: 'How often the report is re-run: daily, weekly or monthly' });
const AlertDrop = Type.Integer({
  minimum: 1,
  maximum: 100,
  description: 'Points the score must fall by (compared with the run before) for an alert',
});
const Email = IntegerEnum([0, 1], { description: "E-mail alerts to the account's address: 0 disabled, 1 enabled" });
const Render = IntegerEnum([0, 1], {
  description: 'Each run renders the page in Chromium and runs the checks on its DOM: 0 no, 1 yes (needs Chromium)',
});

/** Lists of the next wave (monitors, history): paging only, newest first. */
export const PageQuery = Type.Object({
  per_page: Type.Optional(PerPage),
  page: Type.Optional(Page),
});

export const MonitorCreateBody = Type.Object({
  report_id: Type.Integer({ description: 'The report to re-run: one of the account’s' }),
  frequency: Frequency,
  alert_drop: Type.Optional({ ...AlertDrop, default: 5 }),
  email: Type.Optional({ ...Email, default: 1 }),
  render: Type.Optional({ ...Render, default: 0 }),
});

export const MonitorUpdateBody = Type.Object({
  frequency: Type.Optional(Frequency),
  alert_drop: Type.Optional(AlertDrop),
  email: Type.Optional(Email),
  render: Type.Optional(Render),
});
