import { html, type Html } from './html.ts';
import { renderPage, type Page } from './layout.ts';
import { COPY_STATUS, PORTAL_STYLES, copyButton, copyScript } from './copy-buttons.ts';

/** What the dashboard shows of one client: the data it is given (services/sandbox-dashboard.ts gathers it). */
export interface SandboxDashboard {
  client: { id: string; name: string; public_key: string };
  merchants: { id: string; status: string; business_name: string; email: string; created_at: string }[];
  events: DashboardEvent[];
  eventTotal: number;
  webhookUrl: string | null;
  messages: { channel: string; recipient: string; body: string; pay_link: string | null; created_at: string }[];
  /** How many of the newest events and messages are shown. */
  limits: { events: number; messages: number };
}

interface DashboardEvent {
  id: string;
  event_type: string;
  created_at: string;
  delivery_status: string;
  attempts_log: {
    attempted_at: string;
    status_code: number | null;
    error: string | null;
    duration_ms: number | null;
  }[];
}

const STATUS_WORDS: Record<string, string> = {
  invited: 'Invited: form not submitted yet',
  pending: 'Pending review',
  completed: 'Approved',
  declined: 'Declined',
};

/** A table that scrolls sideways on a phone rather than widen the page; focusable so the keyboard can scroll it. */
function scrolling(label: string, table: Html): Html {
  return html`<div class="scroll" role="region" aria-label="${label}" tabindex="0">${table}</div>`;
}

const time = (instant: string | null) =>
  instant ? html`<time datetime="${instant}">${instant.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time>` : '—';

function merchantsSection(dashboard: SandboxDashboard): Html {
  const rows = dashboard.merchants.map(
    (m) =>
      html`<tr><td>${m.business_name || html`<span class="optional">(no name yet)</span>`}</td><td>${STATUS_WORDS[m.status] ?? m.status}</td><td>${m.email || '—'}</td><td><code>${m.id}</code></td><td>${time(m.created_at)}</td></tr>`,
  );
  return html`<section aria-labelledby="merchants-title">
<h2 id="merchants-title">Merchants (${dashboard.merchants.length})</h2>
${
  rows.length === 0
    ? html`<p>No merchants yet. Onboard one with <code>POST /api/v1/onboarding</code>, or get a hosted onboarding link with <code>GET /api/v1/auth/create-session</code> and <code>POST /api/v1/auth/onboarding/{session_token}</code>.</p>`
    : scrolling(
        'Merchants',
        html`<table class="list"><thead><tr><th scope="col">Business</th><th scope="col">Status</th><th scope="col">E-mail</th><th scope="col">Merchant id</th><th scope="col">Joined</th></tr></thead><tbody>${rows}</tbody></table>`,
      )
}
</section>`;
}

function attemptsOf(event: DashboardEvent): Html {
  if (event.attempts_log.length === 0) return html`${event.delivery_status === 'pending' ? 'Not tried yet' : '—'}`;
  const items = event.attempts_log.map(
    (a) =>
      html`<li>${time(a.attempted_at)}: ${a.status_code ? `HTTP ${a.status_code}` : (a.error ?? 'no answer')}, ${a.duration_ms} ms</li>`,
  );
  const last = event.attempts_log.at(-1)!;
  return html`<details><summary>${event.attempts_log.length} ${event.attempts_log.length === 1 ? 'attempt' : 'attempts'}, last ${last.status_code ? `HTTP ${last.status_code}` : 'failed'}</summary><ol>${items}</ol></details>`;
}

function eventsSection(dashboard: SandboxDashboard): Html {
  const rows = dashboard.events.map(
    (e) => html`<tr>
<td><code class="nowrap">${e.event_type}</code></td><td><code>${e.id}</code></td><td>${time(e.created_at)}</td><td>${e.delivery_status}</td><td>${attemptsOf(e)}</td>
<td><form method="post" action="/portal/dashboard/events/${e.id}/resend"><button type="submit" class="secondary">Resend<span class="visually-hidden"> ${e.event_type} ${e.id}</span></button></form></td>
</tr>`,
  );
  const where = dashboard.webhookUrl
    ? html`<p>Events are sent to <code>${dashboard.webhookUrl}</code>.</p>`
    : html`<p>No webhook URL is registered: events wait here until one is (<code>POST /api/v1/client/update-webhooks-url</code>).</p>`;
  return html`<section aria-labelledby="events-title">
<h2 id="events-title">Recent events (${dashboard.events.length} of ${dashboard.eventTotal})</h2>
${where}
${
  rows.length === 0
    ? html`<p>No events yet: onboarding a merchant or taking a payment writes the first.</p>`
    : scrolling(
        'Recent events',
        html`<table class="list"><thead><tr><th scope="col">Type</th><th scope="col">Event id</th><th scope="col">Created</th><th scope="col">Delivery</th><th scope="col">Attempts</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead><tbody>${rows}</tbody></table>`,
      )
}
<p class="hint">The newest ${dashboard.limits.events}; every event is in <code>GET /api/v1/client/webhooks/events</code>.</p>
</section>`;
}

function outboxSection(dashboard: SandboxDashboard): Html {
  const rows = dashboard.messages.map(
    (m) =>
      html`<tr><td>${m.channel === 'sms' ? 'Text' : 'E-mail'}</td><td>${m.recipient}</td><td><div class="message-text">${m.body}</div>${m.pay_link && html`<a href="${m.pay_link}">Open the pay link<span class="visually-hidden"> sent to ${m.recipient}</span></a>`}</td><td>${time(m.created_at)}</td></tr>`,
  );
  return html`<section aria-labelledby="outbox-title">
<h2 id="outbox-title">Sandbox outbox (${dashboard.messages.length})</h2>
<p>The sandbox sends no real texts or e-mails: the ones your merchants' payment requests would send are kept here.</p>
${
  rows.length === 0
    ? html`<p>Nothing sent yet.</p>`
    : scrolling(
        'Sandbox outbox',
        html`<table class="list"><thead><tr><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Message</th><th scope="col">Sent</th></tr></thead><tbody>${rows}</tbody></table>`,
      )
}
<p class="hint">The newest ${dashboard.limits.messages}; also in <code>GET /api/v1/sandbox/messages</code>.</p>
</section>`;
}

/** The sandbox dashboard of the signed-in client: its credentials to copy, its merchants, events and messages. */
export function dashboardPage(
  dashboard: SandboxDashboard,
  nonce: string,
  notice?: { text: string; status?: number },
): Page {
  const { client } = dashboard;
  const body = html`${PORTAL_STYLES}${COPY_STATUS}
${notice && html`<p class="notice" role="status">${notice.text}</p>`}
<p>Signed in as <strong>${client.name}</strong>, in the sandbox. Everything here is this client's own.</p>
<dl>
<dt>Client id</dt><dd class="credential"><code>${client.id}</code>${copyButton(client.id, 'client id')}</dd>
<dt>Client public key</dt><dd class="credential"><code>${client.public_key}</code>${copyButton(client.public_key, 'client public key')}</dd>
<dt>Secret key</dt><dd>Shown only when it was made. Lost it? <a href="/portal">Create new credentials</a>.</dd>
</dl>
${merchantsSection(dashboard)}
${eventsSection(dashboard)}
${outboxSection(dashboard)}
<p class="links"><a href="/docs">Read the API reference</a> · <a href="/portal/dashboard">Refresh</a></p>
${copyScript(nonce)}`;
  return renderPage({ title: 'Sandbox dashboard', body, status: notice?.status ?? 200 });
}

/** Why the dashboard is not shown: no or wrong credentials (401, the browser asks again), or too many wrong ones. */
export function dashboardRefusedPage(reason: 'credentials' | 'throttled', waitSeconds = 0): Page {
  const text =
    reason === 'credentials'
      ? 'Sign in with the client id as the user name and the secret key as the password: the ones the portal showed when it made them.'
      : `Too many wrong sign-ins from your address: try again in ${waitSeconds} seconds.`;
  return renderPage({
    title: 'Sign in to the sandbox dashboard',
    status: reason === 'credentials' ? 401 : 429,
    body: html`<p>${text}</p><p class="links"><a href="/portal">Create sandbox credentials</a></p>`,
  });
}
