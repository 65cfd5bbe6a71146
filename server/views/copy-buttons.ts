import { html, raw, type Html } from './html.ts';

/**
 * A button that copies `value`, hidden until the page's script shows it (without script there is nothing to click;
 * the value is on the page to select). `what` names it for assistive technology: "Copy the client id".
 */
export function copyButton(value: string, what: string): Html {
  return html`<button type="button" class="copy secondary" data-copy="${value}" data-copied="${what} copied." hidden>Copy<span class="visually-hidden"> ${what}</span></button>`;
}

/** Where a copy is announced. */
export const COPY_STATUS = raw('<p id="copy-status" class="visually-hidden" role="status" aria-live="polite"></p>');

/**
 * The copy buttons' script, allowed by the page's nonce: the clipboard API where the page is a secure context
 * (https, or loopback), else the text selected and copied the older way.
 */
export function copyScript(nonce: string): Html {
  return html`<script nonce="${nonce}">
(() => {
  const status = document.getElementById('copy-status');
  const fallback = (text) => {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  };
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const text = button.dataset.copy;
      let copied = false;
      try {
        if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); copied = true; }
      } catch {}
      if (!copied) copied = fallback(text);
      status.textContent = copied ? button.dataset.copied : 'Copying is not allowed here: select the text and copy it.';
    });
  }
})();
</script>`;
}

/** Styles shared by the portal's pages (the pages' CSP allows inline styles; the layout's are every page's). */
export const PORTAL_STYLES = raw(`<style>
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
button.secondary{background:transparent;color:var(--accent);border:2px solid var(--accent)}
button.copy{padding:.25rem .75rem;min-height:44px;margin-inline-start:.5rem}
.credential{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 0}
.credential code{overflow-wrap:anywhere}
.scroll{position:relative;overflow-x:auto;max-width:100%;margin:0 0 1.5rem;border:1px solid var(--soft);border-radius:.5rem;background:var(--card)}
.scroll:focus-visible{outline:3px solid var(--accent)}
table.list{border-collapse:collapse;width:100%;font-size:.9375rem}
table.list caption{text-align:left;font-weight:700;padding:.5rem .75rem}
table.list th,table.list td{text-align:left;vertical-align:top;padding:.5rem .75rem;border-top:1px solid var(--soft)}
table.list th{font-weight:600;white-space:nowrap}
table.list td form{margin:0}
table.list td button{padding:.375rem 1rem}
.notice{border-left:4px solid var(--accent);background:var(--card);padding:.75rem 1rem;border-radius:.25rem}
details summary{cursor:pointer;padding:.25rem 0}
.nowrap{white-space:nowrap}
.message-text{white-space:pre-wrap;overflow-wrap:anywhere;max-width:32rem}
</style>`);
