import { readFileSync } from 'node:fs';

/** User and system CPU time of a process (all its threads) so far, in ms; Linux counts it in 10 ms ticks. */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
