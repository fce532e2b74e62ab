/** A fetch client for the e2e suites: JSON in and out, bearer tokens, and a 5xx fails loudly with offline's output. */
import type { Offline } from './offline.js';

export interface Res {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read any field
  text: string;
}

export interface Req {
  token?: string;
  body?: unknown;
  /** Sent as-is (malformed JSON, other content types). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export function client(getApi: () => Offline) {
  return async (method: string, path: string, req: Req = {}): Promise<Res> => {
    const api = getApi();
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    if (req.token !== undefined) headers.authorization = `Bearer ${req.token}`;
    const body = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const res = await fetch(`${api.baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.status >= 500) throw new Error(`${method} ${path} → ${res.status} ${text}\n--- offline output ---\n${api.output().slice(-3000)}`);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}
