type Work = () => Promise<void>;

/**
 * Work a call causes but does not make its caller wait for (a shopper's receipt after a refund). It starts once the
 * call's answer has gone with success, so whatever the call wrote has committed (a keyed call commits before it
 * answers); a failed call's work never starts. The service waits for running work before it closes. The work logs
 * its own failures.
 */
export class AfterAnswer {
  private readonly waiting = new WeakMap<object, Work[]>();
  private readonly running = new Set<Promise<void>>();

  /** Runs `work` once `request` has been answered, if it succeeded. */
  after(request: object, work: Work): void {
    const waiting = this.waiting.get(request);
    if (waiting) waiting.push(work);
    else this.waiting.set(request, [work]);
  }

  /** From the app's onResponse hook. */
  answered(request: object, succeeded: boolean): void {
    const works = this.waiting.get(request);
    if (!works) return;
    this.waiting.delete(request);
    if (succeeded) for (const work of works) this.start(work);
  }

  /** Resolves once no work is running; for closing. */
  async finished(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private start(work: Work): void {
    const task: Promise<void> = work()
      .catch(() => {}) // Never an unhandled rejection: the work has logged what went wrong.
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }
}
