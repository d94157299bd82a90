import { Type } from '@sinclair/typebox';
import { FREQUENCIES } from '../../monitors/schedule.js';
import { IntegerEnum, Page, PerPage, StringEnum, Timestamp } from './common.js';

const Frequency = StringEnum(FREQUENCIES, { description: 'How often the report is re-run: daily, weekly or monthly' });
const AlertDrop = Type.Integer({
  minimum: 1,
  maximum: 100,
  description: 'Points the score must fall by (compared with the run before) for an alert',
});
const Email = IntegerEnum([0, 1], { description: "E-mail alerts to the account's address: 0 disabled, 1 enabled" });

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
});

export const MonitorUpdateBody = Type.Object({
  frequency: Type.Optional(Frequency),
  alert_drop: Type.Optional(AlertDrop),
  email: Type.Optional(Email),
});

const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const Monitor = Type.Object(
  {
    id: Type.Integer(),
    report_id: Type.Integer(),
    frequency: StringEnum(FREQUENCIES),
    alert_drop: Type.Integer({ minimum: 1, maximum: 100 }),
    email: IntegerEnum([0, 1]),
    last_run_at: { ...NullableTimestamp, description: 'When it last ran (null before its first run)' },
    next_run_at: { ...Timestamp, description: 'When its next scheduled run is due' },
    last_result: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
      description: 'The score of its last run (null before a run)',
    }),
    created_at: Timestamp,
    updated_at: { ...Timestamp, description: 'When its settings last changed' },
  },
  { $id: 'Monitor' },
);

export const HistoryItem = Type.Object(
  {
    result: Type.Integer({ minimum: 0, maximum: 100, description: 'The score of that analysis' }),
    generated_at: Timestamp,
    passed: Type.Integer({ minimum: 0, description: 'Checks passed' }),
    failed: Type.Integer({ minimum: 0, description: 'Checks failed' }),
  },
  { $id: 'HistoryItem' },
);
