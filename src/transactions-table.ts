/** `paykit/transactions-table`: defines `<transactions-table>` alone, for a bundle that needs no other Paykit element. */
import { defineElement } from './shared/define.ts';
import { TransactionsTable } from './elements/transactions-table/transactions-table.ts';

export {
  TransactionsTable,
  transactionsTableStrings,
  type TransactionsTableStringKey,
} from './elements/transactions-table/transactions-table.ts';

defineElement('transactions-table', TransactionsTable);
