/** CPU use of this process, of serverless-offline and of DynamoDB Local's JVM over a run (Linux /proc). */
import { readdirSync, readFileSync } from 'node:fs';
import { round } from '../stats.js';

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds a process has used so far (Linux /proc), or null elsewhere. */
function processCpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
  } catch {
    return null;
  }
}

/** The process that ran the service's code (this one in process, serverless-offline over HTTP) and DynamoDB Local's JVM. */
export interface CpuUse {
  /** Cores used on average over the run. */
  appCores: number | null;
  dynamoCores: number | null;
  /** CPU time per reading (per frame for the rule), µs. */
  appUsPerReading: number | null;
  dynamoUsPerReading: number | null;
}

export function cpuWindow(appPid: number | undefined, dynamoPid: number | undefined): { stop(wallMs: number, readings: number): CpuUse } {
  const own = appPid === undefined;
  const node0 = process.cpuUsage();
  const app0 = own ? null : processCpuSeconds(appPid);
  const jvm0 = processCpuSeconds(dynamoPid);
  return {
    stop(wallMs, readings) {
      const ownCpu = process.cpuUsage(node0);
      const app1 = own ? null : processCpuSeconds(appPid);
      const jvm1 = processCpuSeconds(dynamoPid);
      const appSeconds = own ? (ownCpu.user + ownCpu.system) / 1e6 : app0 !== null && app1 !== null ? app1 - app0 : null;
      const jvmSeconds = jvm0 !== null && jvm1 !== null ? jvm1 - jvm0 : null;
      const cores = (sec: number | null) => (sec === null ? null : round((sec * 1000) / wallMs, 2));
      const perReading = (sec: number | null) => (sec === null ? null : Math.round((sec * 1e6) / readings));
      return {
        appCores: cores(appSeconds),
        dynamoCores: cores(jvmSeconds),
        appUsPerReading: perReading(appSeconds),
        dynamoUsPerReading: perReading(jvmSeconds),
      };
    },
  };
}

/** The pid of this process's child whose command line contains `needle` (serverless-offline), if any. */
export function childPid(needle: string): number | undefined {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid !== process.pid) continue;
        if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) return Number(entry);
      } catch {
        /* gone meanwhile */
      }
    }
  } catch {
    /* no /proc */
  }
  return undefined;
}
