/**
 * What a local stack's processes hold, read from Linux's /proc (as `ss -ltnp` and `ps` read it): the
 * process tree below a pid, the TCP sockets its processes listen on, and a process's thread count.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // gone meanwhile
  }
}

/** `root` and every process below it. */
export function processTree(root: number): number[] {
  const all = readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number);
  const children = new Map<number, number[]>();
  for (const pid of all) {
    const ppid = parentOf(pid);
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export interface ListeningSocket {
  pid: number;
  /** e.g. `127.0.0.1`, `::1`, `0.0.0.0`, `::` (IPv4-mapped IPv6 addresses are given as IPv4). */
  address: string;
  port: number;
}

function ipv4(hex: string): string {
  return [3, 2, 1, 0].map((i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
}

function ipv6(hex: string): string {
  // four 32-bit words, each in host (little-endian) order
  const bytes = [0, 1, 2, 3].flatMap((w) => [3, 2, 1, 0].map((i) => hex.slice(w * 8 + i * 2, w * 8 + i * 2 + 2)));
  const groups = [0, 2, 4, 6, 8, 10, 12, 14].map((i) => Number.parseInt(bytes[i]! + bytes[i + 1]!, 16));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  }
  if (groups.every((g) => g === 0)) return '::';
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return '::1';
  return groups.map((g) => g.toString(16)).join(':');
}

/** Every TCP socket in LISTEN state held by one of `pids`. */
export function listeningSockets(pids: number[]): ListeningSocket[] {
  const listening = new Map<string, { address: string; port: number }>();
  for (const [file, decode] of [
    ['/proc/net/tcp', ipv4],
    ['/proc/net/tcp6', ipv6],
  ] as const) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== '0A') continue; // 0A: LISTEN
      const [addr, port] = cols[1]!.split(':') as [string, string];
      listening.set(cols[9]!, { address: decode(addr), port: Number.parseInt(port, 16) });
    }
  }
  const out: ListeningSocket[] = [];
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target = '';
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      const socket = inode ? listening.get(inode) : undefined;
      if (socket) out.push({ pid, ...socket });
    }
  }
  return out;
}

export const isLoopback = (address: string): boolean => address === '::1' || /^127\./.test(address);

/** The number of threads of a process (a worker thread per concurrent call shows here). */
export function threadCount(pid: number): number {
  return readdirSync(`/proc/${pid}/task`).length;
}

/** Resident memory of a process, in MB. */
export function residentMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : 0;
}
