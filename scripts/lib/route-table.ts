/**
 * The route table: every `functions/<group>/routes.yml` (the same files serverless.yml includes).
 * Routing (method, path → handler file) lives there; behaviour (capability, schemas) in the handler.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface RouteEntry {
  functionName: string;
  group: string;
  /** e.g. functions/auth/login.ts */
  file: string;
  method: string;
  path: string;
}

interface FunctionDef {
  handler: string;
  events?: Array<{ http?: { method: string; path: string }; iot?: unknown; schedule?: unknown }>;
}

/** A function that is not a route: an IoT Core rule, a scheduled job, or one the service invokes itself (same Middy layers, shared/events). */
export interface EventFunctionEntry {
  functionName: string;
  group: string;
  file: string;
  kind: 'iot' | 'schedule' | 'invoke';
}

function functionDefs(): Array<{ group: string; functionName: string; def: FunctionDef }> {
  return routeFiles().flatMap((file) => {
    const group = file.split('/')[1]!;
    const defs = parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, FunctionDef>;
    return Object.entries(defs).map(([functionName, def]) => ({ group, functionName, def }));
  });
}

const fileOf = (def: FunctionDef) => `${def.handler.replace(/\.handler$/, '')}.ts`;

/** The functions triggered by IoT Core rules, schedules, or the service itself (no event: Lambda Invoke). */
export function eventFunctions(): EventFunctionEntry[] {
  return functionDefs().flatMap(({ group, functionName, def }) => {
    const events = def.events ?? [];
    const kind = events.some((e) => e.iot) ? 'iot' : events.some((e) => e.schedule) ? 'schedule' : events.length === 0 ? 'invoke' : undefined;
    return kind ? [{ functionName, group, file: fileOf(def), kind }] : [];
  });
}

export function routeFiles(): string[] {
  const dir = join(ROOT, 'functions');
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'routes.yml')))
    .map((d) => `functions/${d.name}/routes.yml`)
    .sort();
}

export function loadRoutes(): RouteEntry[] {
  const routes: RouteEntry[] = [];
  for (const file of routeFiles()) {
    const group = file.split('/')[1]!;
    const defs = parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, FunctionDef>;
    for (const [functionName, def] of Object.entries(defs)) {
      const handlerFile = `${def.handler.replace(/\.handler$/, '')}.ts`;
      for (const e of def.events ?? []) {
        if (!e.http) continue;
        const path = e.http.path.startsWith('/') ? e.http.path : `/${e.http.path}`;
        routes.push({ functionName, group, file: handlerFile, method: e.http.method.toUpperCase(), path });
      }
    }
  }
  return routes;
}

/** Routes that are endpoints of the API (the catch-all 404 route is not). */
export function apiRoutes(): RouteEntry[] {
  return loadRoutes().filter((r) => r.path !== '/{proxy+}');
}

/** Every handler file (routes, rules and jobs), each once: the entry points of the build. */
export function handlerFiles(): string[] {
  return [...new Set(functionDefs().map(({ def }) => fileOf(def)))].sort();
}
