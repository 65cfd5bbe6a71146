import type { PaykitEvent } from 'paykit/client';

/** A preauthorization the back office can capture, adjust or release. */
export interface Hold {
  transaction_id: string;
  order_id: string;
  /** Decimal text, as the interface takes amounts. */
  amount: string;
  status: 'authorized' | 'captured' | 'released';
  /** The sale a capture made. */
  sale_id?: string;
}

const decimal = (amount: number | string) => Number(amount).toFixed(2);

/**
 * The holds the demo knows of, kept in memory: from its own calls and from the `preauth*` webhooks, so a hold
 * taken on a pay link elsewhere shows up too. A real back end keeps them in its database.
 */
export class HoldBook {
  private readonly holds = new Map<string, Hold>();

  list(): Hold[] {
    return [...this.holds.values()].reverse();
  }

  get(transactionId: string): Hold | undefined {
    return this.holds.get(transactionId);
  }

  record(hold: Hold): void {
    this.holds.set(hold.transaction_id, { ...this.holds.get(hold.transaction_id), ...hold });
  }

  /** Folds a verified webhook event into the book. */
  apply(event: PaykitEvent): void {
    switch (event.event_type) {
      case 'preauth':
      case 'preauth.increment':
      case 'preauth.decrement': {
        const known = this.holds.get(event.data.guid);
        if (known?.status === 'captured' || known?.status === 'released') return;
        this.record({
          transaction_id: event.data.guid,
          order_id: event.data.order_id,
          amount: decimal(event.data.amount),
          status: 'authorized',
        });
        return;
      }
      case 'preauth.charge': {
        const known = this.holds.get(event.data.link_id);
        this.record({
          transaction_id: event.data.link_id,
          order_id: event.data.order_id,
          amount: known?.amount ?? decimal(event.data.amount),
          status: 'captured',
          sale_id: event.data.guid,
        });
        return;
      }
      default:
    }
  }
}
