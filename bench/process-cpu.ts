import { readFileSync } from 'node:fs';

/** User and system CPU time of a process (all its threads) so far, in ms; Linux counts it in 10 ms ticks. */
export function processCpuMs(pid: number): number {
  return cpuMsOf(`/proc/${pid}/stat`);
}

/** The same for a process's main thread alone, the one that runs node's event loop (its thread id is the process id). */
export function mainThreadCpuMs(pid: number): number {
  return cpuMsOf(`/proc/${pid}/task/${pid}/stat`);
}

function cpuMsOf(statFile: string): number {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
