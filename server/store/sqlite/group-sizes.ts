/** Bucket upper bounds of the group-size histogram: 1, 2, 3–4, 5–8, … */
const BOUNDS = [1, 2, 4, 8, 16, 32, 64, 128];

export interface GroupSizeSummary {
  groups: number;
  units: number;
  /** Groups per size range, e.g. `{ "1": 10, "3-4": 7 }`; ranges without a group are left out. */
  histogram: Record<string, number>;
}

/** How many units the committed groups held: makes the batching visible (the bench prints it). */
export class GroupSizes {
  private counts = new Array<number>(BOUNDS.length + 1).fill(0);
  private units = 0;

  record(units: number): void {
    const bucket = BOUNDS.findIndex((bound) => units <= bound);
    this.counts[bucket === -1 ? BOUNDS.length : bucket]!++;
    this.units += units;
  }

  /** The groups since the last `take`, and starts counting afresh. */
  take(): GroupSizeSummary {
    const histogram: Record<string, number> = {};
    this.counts.forEach((count, i) => {
      if (count > 0) histogram[rangeName(i)] = count;
    });
    const summary = { groups: this.counts.reduce((a, b) => a + b, 0), units: this.units, histogram };
    this.counts.fill(0);
    this.units = 0;
    return summary;
  }
}

function rangeName(bucket: number): string {
  if (bucket === BOUNDS.length) return `${BOUNDS.at(-1)! + 1}+`;
  const low = bucket === 0 ? 1 : BOUNDS[bucket - 1]! + 1;
  const high = BOUNDS[bucket]!;
  return low === high ? String(high) : `${low}-${high}`;
}
