/**
 * What Linux says about a process (and the machine) in /proc: CPU time, resident
 * memory and its peak. Elsewhere the readers answer undefined and the report
 * leaves those columns empty.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';

export const procAvailable = existsSync('/proc/self/stat');

let ticksPerSecond: number | undefined;
/** Clock ticks per second, the unit of utime and stime (almost always 100). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5000 }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User and system CPU seconds the process has used so far (fields 14 and 15 of /proc/PID/stat). */
export function cpuTimes(pid: number): { user: number; system: number } | undefined {
  if (!procAvailable) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state), so utime (14) is fields[11] and stime (15) fields[12].
    return { user: Number(fields[11]) / clockTicks(), system: Number(fields[12]) / clockTicks() };
  } catch {
    return undefined;
  }
}

/** User plus system CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): number | undefined {
  const times = cpuTimes(pid);
  return times && times.user + times.system;
}

/** Resident set size now and its peak (VmHWM), in MiB. */
export function memory(pid: number): { rssMiB: number; peakMiB: number } | undefined {
  if (!procAvailable) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/**
 * Resets the process's peak RSS to its current RSS (writing 5 to clear_refs, Linux 4.0+),
 * so that VmHWM afterwards is the peak of what follows. False where that is not allowed.
 */
export function resetPeak(pid: number): boolean {
  if (!procAvailable) return false;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * How often a process has blocked (its event loop found nothing to do) and been preempted, from /proc; NaN
 * where not told.
 */
export function contextSwitches(pid: number): { voluntary: number; involuntary: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const count = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { voluntary: count('voluntary_ctxt_switches'), involuntary: count('nonvoluntary_ctxt_switches') };
  } catch {
    return { voluntary: NaN, involuntary: NaN };
  }
}

/** Busy and total jiffies of the whole machine (first line of /proc/stat). */
export function machineCpu(): { busy: number; total: number } | undefined {
  if (!procAvailable) return undefined;
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    const [, ...values] = line.trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    const numbers = values.slice(0, 8).map(Number);
    const total = numbers.reduce((a, b) => a + b, 0);
    return { busy: total - numbers[3] - numbers[4], total };
  } catch {
    return undefined;
  }
}

/**
 * The local ports of a process's TCP connections to `remotePort` (from its socket
 * descriptors and /proc/net/tcp{,6}): how its database connections are found in
 * pg_stat_activity (client_port). Empty where /proc does not tell.
 */
export function localPortsTo(pid: number, remotePort: number): number[] {
  if (!procAvailable) return [];
  try {
    const inodes = new Set<string>();
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match) inodes.add(match[1]);
      } catch {
        // Closed meanwhile.
      }
    }
    const ports: number[] = [];
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      if (!existsSync(table)) continue;
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const columns = line.trim().split(/\s+/);
        if (columns.length < 10 || !inodes.has(columns[9])) continue;
        const port = (address: string) => parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
        if (port(columns[2]) === remotePort) ports.push(port(columns[1]));
      }
    }
    return ports;
  } catch {
    return [];
  }
}

/** When one phase ran on one server process, as written to phases.json for the profile summary. */
export interface PhaseWindow {
  readonly store: string;
  readonly scenario: string;
  readonly mode: string;
  readonly pid: number;
  /** CLOCK_MONOTONIC microseconds, the clock of a .cpuprofile's timestamps. */
  readonly startUs: number;
  readonly endUs: number;
}
