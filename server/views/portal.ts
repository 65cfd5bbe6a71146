/** Credentials just made, shown once. */
export interface NewCredentials {
  clientId: string;
  secretKey: string;
  publicKey: string;
}
import { attributes, html } from './html.ts';
import { COPY_STATUS, PORTAL_STYLES, copyButton, copyScript } from './copy-buttons.ts';
import { renderPage, type Page } from './layout.ts';

export const CLIENT_NAME_MAX = 100;

/** The sandbox test portal's start: what sandbox credentials are, and a button that makes a set. */
export function portalPage({ name = '', error }: { name?: string; error?: string } = {}): Page {
  const ids = [error && 'name-error', 'name-hint'].filter(Boolean).join(' ');
  const body = html`<p>Sandbox credentials are a <strong>client id</strong> and a <strong>secret key</strong> for this sandbox service.
Your server sends them with every API call as HTTP Basic authentication: the client id as the user name, the secret key as the password.</p>
<p>Nothing in the sandbox moves real money. Onboard test merchants, take payments with the test cards, and try refunds, voids and webhooks as often as you like.</p>
<form method="post" action="/portal/credentials">
<div class="field">
<label for="name">Name for these credentials <span class="optional">(optional)</span></label>
<p class="hint" id="name-hint">Helps you tell several sets apart, e.g. Staging shop. At most ${CLIENT_NAME_MAX} characters.</p>
${error && html`<p class="error" id="name-error">${error}</p>`}
<input type="text" id="name" name="name" autocomplete="off" maxlength="${CLIENT_NAME_MAX}" value="${name}" aria-describedby="${ids}"${attributes({ 'aria-invalid': error ? 'true' : undefined })}>
</div>
<button type="submit">Create sandbox credentials</button>
</form>
<h2>Already have credentials?</h2>
<p><a href="/portal/dashboard">Open the sandbox dashboard</a>: their merchants, webhook events and sandbox messages. Sign in with the client id and secret key.</p>
<p class="links"><a href="/docs">Read the API reference</a></p>`;
  return renderPage({ title: 'Sandbox test portal', body, status: error ? 400 : 200 });
}

/** The new credentials; the secret key is on this page and nowhere else. */
export function credentialsPage(credentials: NewCredentials, publicUrl: string, nonce: string): Page {
  const { clientId, secretKey, publicKey } = credentials;
  const body = html`${PORTAL_STYLES}${COPY_STATUS}<p class="warning"><strong>Copy the secret key now: it is shown only this once.</strong>
Paykit keeps only a digest of it and cannot show it again. If you lose it, create new credentials.</p>
<dl>
<dt>Client id</dt><dd><code>${clientId}</code>${copyButton(clientId, 'client id')}</dd>
<dt>Secret key</dt><dd><code>${secretKey}</code>${copyButton(secretKey, 'secret key')}</dd>
<dt>Client public key</dt><dd><code>${publicKey}</code>${copyButton(publicKey, 'client public key')}</dd>
</dl>
<h2>Your sandbox dashboard</h2>
<p><a href="/portal/dashboard">Open the sandbox dashboard</a> to see these credentials' merchants, webhook events (and resend them) and the texts and e-mails the sandbox kept. Your browser asks you to sign in: the client id is the user name, the secret key the password.</p>
<h2>Try them</h2>
<p>List your merchants (none yet):</p>
<pre><code>curl -u ${clientId}:${secretKey} ${publicUrl}/api/v1/merchant</code></pre>
<p>Next, onboard a test merchant: <code>GET /api/v1/auth/create-session</code>, then <code>POST /api/v1/auth/onboarding/{session_token}</code> gives you a link to the hosted form.</p>
<p>Or try any call in <a href="/docs">the API reference</a>: paste the client id and secret key in its Authentication box.</p>
<p class="links"><a href="/docs">Read the API reference</a> · <a href="/portal">Create another set</a></p>
${copyScript(nonce)}`;
  return renderPage({ title: 'Your sandbox credentials', body });
}
