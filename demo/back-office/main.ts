import { configure, type TransactionsTable } from 'paykit';
import { $, call, demoConfig, onSubmit, show } from '../shared/api.ts';
import { renderHeader } from '../shared/chrome.ts';
import { h, money, replaceKeepingInputs, when } from '../shared/dom.ts';
import { watchWebhooks } from '../shared/webhooks.ts';
import { renderWebhook } from '../shared/webhook-view.ts';

interface Hold {
  transaction_id: string;
  order_id: string;
  amount: string;
  status: string;
  sale_id?: string;
}
interface Message {
  channel: string;
  recipient: string;
  text: string;
  pay_link: string;
  created_at: string;
}
interface Payouts {
  balance: { available: string; pending: string };
  payouts: {
    payout_id: string;
    amount: string;
    status: string;
    created_date: string;
    arrival_date: string;
    entry_count: number;
  }[];
}

const status = $('#action-status');
const table = $<TransactionsTable>('#table');
// The forms work from the first moment the page shows them: wired before anything is awaited, or an early click
// would submit them natively.
onSubmit($('#hold-form'), async (data) => {
  const answer = await call<Hold>('POST', '/demo-api/holds', data);
  show(
    status,
    answer.result
      ? `Hold of ${money(answer.data.amount)} placed: ${answer.data.order_id}.`
      : `Hold not placed: ${answer.message}`,
    answer.result ? 'ok' : 'error',
  );
  await refreshHolds();
});
$('#refresh-messages').addEventListener('click', () => void refreshMessages());
onSubmit($('#dispute-form'), async (data) => {
  const answer = await call<{ dispute_id: string; transaction_id: string; amount: string }>(
    'POST',
    '/demo-api/disputes',
    data,
  );
  show(
    status,
    answer.result
      ? `Dispute ${answer.data.dispute_id} opened on ${answer.data.transaction_id}: ${money(answer.data.amount)} and the 15.00 fee withdrawn. Open its row to answer it.`
      : `No dispute opened: ${answer.message}`,
    answer.result ? 'ok' : 'error',
  );
  await Promise.all([refreshPayouts(), table.reload()]);
});
onSubmit($('#clock-form'), async (data) => {
  const answer = await call<{ now: string }>('POST', '/demo-api/clock', data);
  show(
    status,
    answer.result
      ? `The sandbox's clock reads ${when(answer.data.now)} now.`
      : `The clock did not move: ${answer.message}`,
    answer.result ? 'ok' : 'error',
  );
  await Promise.all([refreshPayouts(), table.reload()]);
});

const config = await demoConfig();
renderHeader(config);
// The back office imports the package from npm instead of the script tag: configure() does what the tag's attributes do.
configure({ publicKey: config.publicKey, baseUrl: config.serviceUrl });
// The demo's back end mints the table's token with the features the staff may use, as a merchant's server would;
// the table learns them from its listing, whose answer says what the token allows, and shows those actions only.
table.fetchSessionToken = async () => {
  const answer = await call<{ session_token: string }>('POST', '/demo-api/widget-session');
  if (!answer.result) throw new Error(answer.message);
  return answer.data.session_token;
};
// What the console did, in the page's own status line too; the filters kept in the page's URL.
for (const [type, what] of [
  ['transaction-refunded', 'Refunded'],
  ['transaction-voided', 'Voided'],
  ['transaction-captured', 'Captured'],
  ['transaction-released', 'Released'],
  ['transaction-undone', 'Undone'],
  ['receipt-sent', 'Receipt sent for'],
] as const) {
  table.addEventListener(type, (event) => {
    show(
      status,
      `${what} ${event.detail.transaction.transaction_id}${event.detail.transaction.undone_as ? ` (as a ${event.detail.transaction.undone_as})` : ''}.`,
      'ok',
    );
    if (type === 'transaction-captured' || type === 'transaction-released') void refreshHolds();
  });
}
for (const [type, what] of [
  ['dispute-submitted', 'Evidence submitted for'],
  ['dispute-accepted', 'Accepted'],
] as const)
  table.addEventListener(type, (event) => {
    show(status, `${what} dispute ${event.detail.dispute.dispute_id} (${event.detail.dispute.status}).`, 'ok');
    void refreshPayouts();
  });
table.filters = Object.fromEntries(new URLSearchParams(location.search));
table.addEventListener('transactions-filter-change', (event) => {
  const query = new URLSearchParams(Object.entries(event.detail).filter(([, value]) => value)).toString();
  history.replaceState(null, '', query ? `?${query}` : location.pathname);
});

/** Runs one back-office action and says how it went. */
async function act(
  button: HTMLButtonElement,
  label: string,
  path: string,
  body: Record<string, string>,
): Promise<void> {
  button.disabled = true;
  const answer = await call('POST', path, body);
  button.disabled = false;
  show(status, answer.result ? `${label}: done.` : `${label}: ${answer.message}`, answer.result ? 'ok' : 'error');
  await Promise.all([refreshHolds(), table.reload()]);
}

function amountField(name: string, label: string, value: string): HTMLInputElement {
  return h('input', { name, 'aria-label': label, value, inputmode: 'decimal', size: '7', maxlength: '12' });
}

const tableOf = (columns: string[], rows: HTMLElement[]) =>
  h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      {},
      h('thead', {}, h('tr', {}, ...columns.map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', {}, ...rows),
    ),
  );

async function refreshHolds(): Promise<void> {
  const target = $('#holds');
  const answer = await call<Hold[]>('GET', '/demo-api/holds');
  if (!answer.result) return show(target, answer.message ?? 'Could not list holds.', 'error');
  if (answer.data.length === 0) return show(target, 'No holds yet.');
  const rows = answer.data.map((hold) => {
    const actions = h('div', { class: 'actions' });
    if (hold.status === 'authorized') {
      const label = `hold ${hold.order_id}`;
      const amount = amountField(`hold-${hold.transaction_id}`, `New amount for ${label}`, hold.amount);
      const adjust = h('button', { type: 'button', class: 'secondary' }, 'Adjust');
      adjust.addEventListener('click', () =>
        act(adjust, `Adjust ${label} to ${money(amount.value)}`, '/demo-api/holds/adjust', {
          transaction_id: hold.transaction_id,
          amount: amount.value,
        }),
      );
      const capture = h('button', { type: 'button' }, 'Capture');
      capture.addEventListener('click', () =>
        act(capture, `Capture of ${label}`, '/demo-api/holds/capture', { transaction_id: hold.transaction_id }),
      );
      const release = h('button', { type: 'button', class: 'secondary danger' }, 'Release');
      release.addEventListener('click', () =>
        act(release, `Release of ${label}`, '/demo-api/holds/release', { transaction_id: hold.transaction_id }),
      );
      actions.append(amount, adjust, capture, release);
    }
    return h(
      'tr',
      {},
      h('td', {}, hold.order_id),
      h('td', {}, money(hold.amount)),
      h('td', {}, hold.status),
      h('td', {}, actions),
    );
  });
  replaceKeepingInputs(target, tableOf(['Order', 'Amount', 'Status', 'Actions'], rows));
}

async function refreshPayouts(): Promise<void> {
  const target = $('#payouts');
  const answer = await call<Payouts>('GET', '/demo-api/payouts');
  if (!answer.result) return show(target, answer.message ?? 'Could not read the payouts.', 'error');
  const { balance, payouts } = answer.data;
  $('#balance').textContent = `Available ${money(balance.available)} · pending ${money(balance.pending)}`;
  if (payouts.length === 0) return show(target, 'No payouts yet: move the clock past the day sales become available.');
  target.replaceChildren(
    tableOf(
      ['Made', 'Amount', 'Status', 'Arrives', 'Entries'],
      payouts.map((payout) =>
        h(
          'tr',
          {},
          h('td', {}, when(payout.created_date)),
          h('td', {}, money(payout.amount)),
          h('td', {}, payout.status.replace('_', ' ')),
          h('td', {}, payout.arrival_date),
          h('td', {}, String(payout.entry_count)),
        ),
      ),
    ),
  );
}

async function refreshMessages(): Promise<void> {
  const target = $('#message-list');
  const answer = await call<Message[]>('GET', '/demo-api/messages');
  if (!answer.result) return show(target, answer.message ?? 'Could not list messages.', 'error');
  if (answer.data.length === 0) return show(target, 'No messages yet: send a payment request from the storefront.');
  target.replaceChildren(
    h(
      'ul',
      { class: 'messages' },
      ...answer.data
        .slice(0, 10)
        .map((message) =>
          h(
            'li',
            {},
            h(
              'p',
              {},
              h('strong', {}, `${message.channel.toUpperCase()} to ${message.recipient}`),
              ` · ${when(message.created_at)}`,
            ),
            h('p', {}, message.text),
            h('a', { href: message.pay_link, target: '_blank', rel: 'noopener' }, 'Open the pay link'),
          ),
        ),
    ),
  );
}

const webhookList = $('#webhooks');
watchWebhooks((delivery, live) => {
  webhookList.prepend(renderWebhook(delivery));
  if (!live) return;
  if (delivery.event?.event_type.startsWith('preauth')) void refreshHolds();
  if (delivery.event?.event_type.startsWith('payment.')) void table.reload();
  if (delivery.event?.event_type.startsWith('payout.')) void refreshPayouts();
});
await Promise.all([refreshHolds(), refreshMessages(), refreshPayouts()]);
