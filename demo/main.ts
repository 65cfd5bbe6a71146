/** The demo's onboarding page: every call goes through the demo's back end, never with the secret in the page. */

interface Answer<T> {
  result: boolean;
  message?: string;
  data: T;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return response.json();
}

const $ = <T extends Element>(selector: string) => document.querySelector<T>(selector)!;

function show(target: HTMLElement, content: Node | string, kind: 'ok' | 'error' = 'ok'): void {
  const paragraph = document.createElement('p');
  paragraph.className = kind;
  paragraph.append(content);
  target.replaceChildren(paragraph);
}

async function refreshMerchants(): Promise<void> {
  const target = $<HTMLElement>('#merchants');
  const answer = await call<Array<Record<string, string>>>('GET', '/demo-api/merchants');
  if (!answer.result) return show(target, answer.message ?? 'Could not list merchants.', 'error');
  if (answer.data.length === 0) return show(target, 'No merchants yet: onboard one above.');
  const table = document.createElement('table');
  table.innerHTML = '<thead><tr><th scope="col">Business</th><th scope="col">Joined</th><th scope="col">Public key</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>';
  const body = table.createTBody();
  for (const merchant of answer.data) {
    const row = body.insertRow();
    const cells = [merchant.businessname || '(form not submitted yet)', new Date(merchant.join_date!).toLocaleString(), merchant.public_data ? (merchant.public_data as unknown as { public_key: string }).public_key : '', merchant.status!];
    for (const text of cells) row.insertCell().textContent = text;
    const action = row.insertCell();
    if (merchant.status === 'pending') {
      const approve = document.createElement('button');
      approve.className = 'secondary';
      approve.textContent = 'Approve (sandbox)';
      approve.addEventListener('click', async () => {
        approve.disabled = true;
        await call('POST', '/demo-api/approve', { merchant_id: merchant.merchant_id });
        await refreshMerchants();
      });
      action.append(approve);
    }
  }
  target.replaceChildren(table);
}

function onSubmit(form: HTMLFormElement, handle: (data: Record<string, string>) => Promise<void>): void {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button')!;
    button.disabled = true;
    try {
      await handle(Object.fromEntries(new FormData(form)) as Record<string, string>);
    } finally {
      button.disabled = false;
    }
  });
}

onSubmit($('#onboard-form'), async (data) => {
  const answer = await call<{ merchant_id: string; public_key: string }>('POST', '/demo-api/onboard', data);
  const target = $<HTMLElement>('#onboard-result');
  if (!answer.result) return show(target, answer.message ?? 'Onboarding failed.', 'error');
  show(target, `Onboarded ${data.business_name}: ${answer.data.merchant_id}, public key ${answer.data.public_key}. It waits for review.`);
  await refreshMerchants();
});

onSubmit($('#link-form'), async (data) => {
  const answer = await call<{ onboarding_link: string }>('POST', '/demo-api/onboarding-link', data);
  const target = $<HTMLElement>('#link-result');
  if (!answer.result) return show(target, answer.message ?? 'Could not create a link.', 'error');
  const link = document.createElement('a');
  link.href = answer.data.onboarding_link;
  link.target = '_blank';
  link.rel = 'noopener';
  link.textContent = 'Open the one-time onboarding form';
  show(target, link);
  await refreshMerchants();
});

$('#refresh').addEventListener('click', () => void refreshMerchants());

const config = await call<{ serviceUrl: string; publicKey: string }>('GET', '/demo-api/config');

/** The storefront: the widgets come from the service's script tag, exactly as on a merchant's page. */
function loadWidgets(): void {
  const tag = document.createElement('script');
  tag.type = 'module';
  tag.src = `${config.data.serviceUrl}/paykit.js`;
  tag.dataset.publicKey = config.data.publicKey;
  document.head.append(tag);

  const outcomes = $<HTMLElement>('#outcomes');
  const report = (text: string, kind: 'ok' | 'error' = 'ok') => {
    const line = document.createElement('p');
    line.className = kind;
    line.textContent = text;
    outcomes.prepend(line);
  };
  document.addEventListener('pay-success', (event) => {
    const { transaction_id, amount } = (event as CustomEvent<{ transaction_id: string; amount: string }>).detail;
    report(`Paid ${amount}: ${transaction_id}`);
    void ($('#table') as HTMLElement & { reload?: () => void }).reload?.();
  });
  document.addEventListener('pay-error', (event) => report((event as CustomEvent<{ message: string }>).detail.message, 'error'));
  document.addEventListener('request-sent', (event) => report(`Text sent with ${(event as CustomEvent<{ pay_link: string }>).detail.pay_link}`));
  document.addEventListener('request-error', (event) => report((event as CustomEvent<{ message: string }>).detail.message, 'error'));

  const request = $<HTMLElement>('#request');
  const phone = $<HTMLInputElement>('#phone');
  const syncPhone = () => request.setAttribute('recipient-phone', phone.value);
  phone.addEventListener('input', syncPhone);
  syncPhone();

  // The demo's back end mints the table's read-only token, as a merchant's server would.
  const table = $('#table') as HTMLElement & { fetchSessionToken?: () => Promise<string> };
  table.fetchSessionToken = async () => (await call<{ session_token: string }>('POST', '/demo-api/widget-session')).data.session_token;
}
loadWidgets();
for (const anchor of document.querySelectorAll<HTMLAnchorElement>('[data-service-link]')) {
  anchor.href = `${config.data.serviceUrl}${anchor.dataset.serviceLink}`;
}
await refreshMerchants();
