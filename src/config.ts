// Every setting the service reads from the environment (the README lists them all).
import { readFileSync } from 'node:fs';
import { analysisConfigFromEnv, type AnalysisConfig } from './analysis/config.js';

export interface AppConfig {
  host: string;
  port: number;
  databaseUrl: string;
  databasePoolSize: number;
  /** Honour X-Forwarded-Proto/Host/For (only behind a proxy you control). */
  trustProxy: boolean;
  logLevel: string;
  rateLimitPerMinute: number;
  redisUrl: string | null;
  /** Concurrent analyses per instance, and how long a create may wait for a slot. */
  analysisConcurrency: number;
  analysisQueueTimeoutMs: number;
  /** Analyses one account may run at once, so the other slots stay free for other accounts. */
  analysisConcurrencyPerAccount: number;
  /** Largest accepted request body, bytes. */
  bodyLimit: number;
  /** E-mail of the account created on first start of an empty database. */
  adminEmail: string;
  analysis: AnalysisConfig;
  version: string;
}

type Env = Record<string, string | undefined>;

function intSetting(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}, got "${env[name]}"`);
  }
  return Number(raw);
}

function boolSetting(env: Env, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase() ?? '';
  if (raw === '' || ['0', 'false', 'no', 'off'].includes(raw)) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

export const VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return '0.0.0';
  }
})();

export function loadConfig(env: Env = process.env): AppConfig {
  const analysisConcurrency = intSetting(env, 'ANALYSIS_CONCURRENCY', 8, 1, 1000);
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: intSetting(env, 'PORT', 8080, 0, 65535),
    databaseUrl: env.DATABASE_URL?.trim() || 'sqlite:data/rankscope.db',
    databasePoolSize: intSetting(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    trustProxy: boolSetting(env, 'TRUST_PROXY'),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    rateLimitPerMinute: intSetting(env, 'RATE_LIMIT_PER_MINUTE', 60),
    redisUrl: env.REDIS_URL?.trim() || null,
    analysisConcurrency,
    analysisQueueTimeoutMs: intSetting(env, 'ANALYSIS_QUEUE_TIMEOUT', 30, 0, 3600) * 1000,
    // at most ANALYSIS_CONCURRENCY; by default two slots stay free for other accounts
    analysisConcurrencyPerAccount: intSetting(env, 'ANALYSIS_CONCURRENCY_PER_ACCOUNT', Math.max(1, analysisConcurrency - 2), 1, analysisConcurrency),
    bodyLimit: intSetting(env, 'BODY_LIMIT', 64 * 1024, 1024, 100 * 1024 * 1024),
    adminEmail: env.ADMIN_EMAIL?.trim() || 'admin@localhost',
    analysis: analysisConfigFromEnv(env),
    version: VERSION,
  };
}
