import { settings } from '../config/env.js';
import { tableReachable } from '../db/health.js';

/** Liveness with the one dependency that matters: the table answers (degraded when it does not). */
export async function systemHealth() {
  const healthy = await tableReachable();
  return {
    healthy,
    status: healthy ? ('ok' as const) : ('degraded' as const),
    timestamp: new Date().toISOString(),
    uptime: Math.round(process.uptime() * 1000) / 1000,
    environment: settings().stage,
  };
}
