/**
 * The floor of <transactions-table>'s rendering (bench/widgets.ts): the same 1,000 rows as a plain lit-html table,
 * the same cells formatted by Intl, into a light-DOM container, with no element, no shadow root and no styles.
 */
import { html, render } from 'lit-html';

interface Row {
  transaction_id: string;
  created_date: string;
  amount: string;
  card_brand: string;
  last_four: string;
  status: string;
}

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function renderTable(items: Row[], container: HTMLElement): void {
  render(
    html`<table>
      <thead><tr><th>Date</th><th>Amount</th><th>Card</th><th>Status</th></tr></thead>
      <tbody>${items.map(
        (item) => html`<tr data-transaction-id=${item.transaction_id}>
        <td>${dateTime.format(Date.parse(item.created_date))}</td>
        <td>${money.format(Number(item.amount))}</td>
        <td>${item.card_brand} •••• ${item.last_four}</td>
        <td>${item.status}</td>
      </tr>`,
      )}</tbody>
    </table>`,
    container,
  );
}

(globalThis as { renderFloorTable?: typeof renderTable }).renderFloorTable = renderTable;
