// What the dashboard's page modules get: the API (in process), sessions, and the few things
// pages show that the API does not give (the score bands, the stats for the charts).
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { SessionService } from '../accounts/sessions.js';
import type { AnalysisConfig } from '../analysis/config.js';
import type { UsersRepository } from '../db/users-repository.js';
import type { Clock } from '../time.js';
import type { StatsService } from '../tracking/stats-service.js';
import type { DashboardApi } from './api-client.js';

export interface DashboardDeps {
  api: DashboardApi;
  sessions: SessionService;
  users: UsersRepository;
  clock: Clock;
  config: AnalysisConfig;
  stats: StatsService;
  /** Signs the notice cookie; the share pages' secret. */
  cookieSecret: string;
  /** The public pages' limit of requests per client address (/login is one). */
  publicLimit: onRequestHookHandler;
  /** Whether this instance can render pages (Chromium installed): the forms offer `render` only then. */
  renderer: { available(): boolean };
}

/** A page module: registers its routes under /app. */
export type PageModule = (scope: FastifyInstance, deps: DashboardDeps) => void;
