import { $, call, demoConfig, onSubmit, show } from '../shared/api.ts';
import { renderHeader } from '../shared/chrome.ts';
import { h, when } from '../shared/dom.ts';
import { watchWebhooks } from '../shared/webhooks.ts';
import { renderWebhook } from '../shared/webhook-view.ts';

interface ListedMerchant {
  merchant_id: string;
  businessname: string;
  join_date: string;
  status: string;
  public_data?: { public_key?: string };
}

/** The interface's onboarding status, in the words a partner's staff would use. */
const STATUS_LABELS: Record<string, string> = { pending: 'pending review', completed: 'approved' };
const ONBOARDING_EVENTS = new Set(['merchant.onboarding', 'documents.signed', 'merchant.approval']);

async function refreshMerchants(): Promise<void> {
  const target = $('#merchants');
  const answer = await call<ListedMerchant[]>('GET', '/demo-api/merchants');
  if (!answer.result) return show(target, answer.message ?? 'Could not list merchants.', 'error');
  const rows = answer.data.map((merchant) => {
    const action = h('td');
    if (merchant.status === 'pending') {
      const approve = h('button', { type: 'button', class: 'secondary' }, 'Approve (sandbox)');
      approve.addEventListener('click', async () => {
        approve.disabled = true;
        const answer = await call('POST', '/demo-api/approve', { merchant_id: merchant.merchant_id });
        show(
          $('#merchant-status'),
          answer.result ? `${merchant.businessname} is approved.` : `Not approved: ${answer.message}`,
          answer.result ? 'ok' : 'error',
        );
        await refreshMerchants();
      });
      action.append(approve);
    }
    return h(
      'tr',
      {},
      h('td', {}, merchant.businessname || '(form not submitted yet)'),
      h('td', {}, when(merchant.join_date)),
      h('td', {}, h('code', {}, merchant.public_data?.public_key ?? '')),
      h('td', { class: `status-${merchant.status}` }, STATUS_LABELS[merchant.status] ?? merchant.status),
      action,
    );
  });
  target.replaceChildren(
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['Business', 'Joined', 'Public key', 'Status'].map((name) => h('th', { scope: 'col' }, name)),
            h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Action')),
          ),
        ),
        h('tbody', {}, ...rows),
      ),
    ),
  );
}

onSubmit($('#onboard-form'), async (data) => {
  const answer = await call<{ merchant_id: string; public_key: string }>('POST', '/demo-api/onboard', data);
  const target = $('#onboard-result');
  if (!answer.result) return show(target, answer.message ?? 'Onboarding failed.', 'error');
  show(target, `Onboarded ${data.business_name}: ${answer.data.merchant_id}. It waits for review.`, 'ok');
  await refreshMerchants();
});

onSubmit($('#link-form'), async (data) => {
  const answer = await call<{ onboarding_link: string }>('POST', '/demo-api/onboarding-link', data);
  const target = $('#link-result');
  if (!answer.result) return show(target, answer.message ?? 'Could not create a link.', 'error');
  show(
    target,
    h(
      'a',
      { href: answer.data.onboarding_link, target: '_blank', rel: 'noopener' },
      `Open ${data.business_name}'s one-time onboarding form`,
    ),
  );
  await refreshMerchants();
});

$('#refresh').addEventListener('click', () => void refreshMerchants());
// Awaited only once the forms are wired above, so that an early click never submits them natively.
renderHeader(await demoConfig());
const webhookList = $('#webhooks');
watchWebhooks((delivery, live) => {
  if (delivery.event && !ONBOARDING_EVENTS.has(delivery.event.event_type)) return;
  webhookList.prepend(renderWebhook(delivery));
  if (live) void refreshMerchants();
});
await refreshMerchants();
