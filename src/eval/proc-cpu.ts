/**
 * CPU time of another process (a server a bench started), from /proc (Linux). The benches report it beside
 * wall-clock rates, which swing with the load of a shared machine.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc times (usually 100). */
export function clockTick(): number {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(r.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
}

/** A reader of the CPU ms (user + system) process `pid` used so far; it answers null off Linux or once the process is gone. */
export function cpuOf(pid: number | undefined, tick: number = clockTick()): () => number | null {
  return () => {
    if (pid === undefined) return null;
    try {
      // Fields after the command name (which may hold spaces): state is 3rd, utime 14th, stime 15th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(f[11]) + Number(f[12])) * 1000) / tick;
    } catch {
      return null;
    }
  };
}
