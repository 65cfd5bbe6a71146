/**
 * The console's dispute panel (issue 46), imported by the console only when a disputed sale is opened with a session
 * that grants `disputes`, so no other page loads it: the card holder's reason in plain words, the amount and the fee,
 * the time left to answer (said again each minute while shown), the files saved (each downloaded with the session), the
 * evidence form (text and PDF/PNG/JPEG files, checked here by their bytes as the service checks them), and submit or
 * accept, each after a question that says exactly what will happen.
 */
import type { TemplateResult } from 'lit-element';
import type { DisputeAnswer, DisputeFileAnswer } from '../../../contract/wire-types.ts';
import type { TransactionItem } from '../../widget-api.ts';
import type { DisputeActionDetail } from '../events.ts';
import type { ConsoleHost } from './console-host.ts';
import { consoleCalls } from '../../widget-console-api.ts';
import {
  isSafeFilename,
  MAX_EVIDENCE_FILE_BYTES,
  MAX_EVIDENCE_FILES,
  sniffEvidenceType,
} from '../../../rules/evidence-files.ts';

type Dispute = DisputeAnswer['data'];
type SavedFile = Dispute['files'][number];
type Field = (typeof FIELDS)[number];
type Slot = Field | 'files' | 'form';

/** The panel's texts (English); `strings` and the languages replace them by the same keys. */
const disputeStrings = {
  disputeHeading: 'Dispute',
  claimFraudulent: 'The card holder says they did not make this payment.',
  claimProductNotReceived: 'The card holder says they did not receive what they paid for.',
  claimProductUnacceptable: 'The card holder says what they received was defective or not as described.',
  claimDuplicate: 'The card holder says they were charged twice for one purchase.',
  claimSubscriptionCanceled: 'The card holder says they were charged after cancelling their subscription.',
  claimCreditNotProcessed: 'The card holder says a refund they were promised never came.',
  claimGeneral: 'The card holder disputes this payment.',
  disputeMoney: '{amount} and the {fee} dispute fee were withdrawn from your balance; both come back if you win.',
  inquiryMoney: 'An inquiry: nothing is withdrawn yet. If it becomes a dispute, {amount} and the {fee} fee will be.',
  disputeDue: 'Answer within {days} d {hours} h (by {date}).',
  disputeDueSoon: 'Answer within {minutes} min (by {date}).',
  disputeOverdue: 'The time to answer ended on {date}.',
  disputeInquiry: 'Inquiry: waiting for your answer',
  disputeNeedsResponse: 'Waiting for your answer',
  disputeUnderReview: "Submitted: the card holder's bank is reviewing it",
  disputeWon: 'Won: the money came back',
  disputeLost: 'Lost',
  fieldProductDescription: 'What was sold',
  fieldCustomerCommunication: 'Messages with the customer',
  fieldRefundPolicy: 'Refund policy',
  fieldShippingCarrier: 'Shipping carrier',
  fieldShippingTrackingNumber: 'Tracking number',
  fieldServiceDate: 'Service date (YYYY-MM-DD)',
  fieldExplanation: 'Your explanation',
  fieldFiles: 'Files: PDF, PNG or JPEG, 5 MB each, 10 in all',
  filesSent: 'Files saved: {names}',
  downloadFile: 'Download {name}',
  saveEvidence: 'Save evidence',
  evidenceSaved: 'Evidence saved.',
  submitEvidence: 'Submit evidence…',
  acceptDispute: 'Accept the dispute…',
  confirmSubmit:
    "Send the evidence saved to the card holder's bank? Nothing can be added or changed afterwards; the bank decides.",
  confirmAccept: 'Accept the dispute? It is lost: {amount} and the {fee} fee stay withdrawn from your balance.',
  yesSubmit: 'Yes, submit',
  yesAccept: 'Yes, accept',
  disputeCancel: 'Cancel',
  evidenceSubmitted: "Evidence submitted: the card holder's bank is reviewing it.",
  disputeAccepted: 'Dispute accepted: it is lost.',
  errorFileType: '{name} is not a PDF, PNG or JPEG file.',
  errorFileSize: '{name} is over 5 MB.',
  errorFileCount: 'A dispute takes at most 10 files in all.',
  errorFileName: '{name}: use a plain name ending .pdf, .png, .jpg or .jpeg.',
  errorServiceDate: 'Use a date as YYYY-MM-DD, e.g. 2026-03-13.',
  errorEmpty: 'Save some evidence (a text field or a file) before submitting it.',
  errorFileGone: 'Could not download {name}: it is no longer there.',
  errorFileRefused: 'Could not download {name}: this console is not allowed to.',
  errorFileDownload: 'Could not download {name}. Try again.',
} as const;

export type DisputeStringKey = keyof typeof disputeStrings;

const FIELDS = [
  'product_description',
  'customer_communication',
  'refund_policy',
  'shipping_carrier',
  'shipping_tracking_number',
  'service_date',
  'explanation',
] as const;
const LONG: readonly Field[] = ['product_description', 'customer_communication', 'refund_policy', 'explanation'];
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const camel = (value: string) => value.replace(/(^|_)(\w)/g, (_, __, letter: string) => letter.toUpperCase());
const base64 = (bytes: Uint8Array) => {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
};

export class DisputeView {
  readonly console: ConsoleHost;
  #disputes = new Map<string, Dispute>();
  /** Errors beside each field (`files`, a text field, or `form` for the whole), and what the last step said. */
  #errors: Partial<Record<Slot, string>> = {};
  #done = '';
  #asked: '' | 'submit' | 'accept' = '';
  #busy = false;
  /** The Idempotency-Key of a step whose outcome is not known yet: tried again, it happens once. */
  #keys = new Map<string, string>();
  /** Saved files on their way to the browser, and why one could not come, by file id. */
  #fetching = new Set<string>();
  #fileErrors = new Map<string, string>();
  /** The next minute of the time left, when the panel shows it again. */
  #tick?: ReturnType<typeof setTimeout>;
  #calls: ReturnType<typeof consoleCalls>;

  constructor(console: ConsoleHost) {
    this.console = console;
    this.#calls = consoleCalls(console.lib);
  }

  text = (key: DisputeStringKey, values?: Record<string, string | number>): string =>
    this.console.lib.interpolate(this.console.ownText(key) ?? disputeStrings[key], values);

  /** A call about the dispute `id` with the session; a POST's Idempotency-Key is kept until its outcome is known. */
  async #send<T>(id: string, path: string, body?: unknown): Promise<T> {
    const what = `${id}/${path}`;
    const key = this.#keys.get(what) ?? crypto.randomUUID();
    if (body !== undefined) this.#keys.set(what, key);
    const answer = await this.console.withToken((baseUrl, token) =>
      this.console.lib.widgetCall<T>(`${baseUrl}/api/v1/widgets/disputes/${encodeURIComponent(id)}${path}`, {
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': key }),
        },
        ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
      }),
    );
    this.#keys.delete(what);
    return answer;
  }

  /** A call whose answer is the dispute as it now is: shown from then on. */
  async #call(id: string, path: string, body?: unknown): Promise<Dispute> {
    const dispute = await this.#send<Dispute>(id, path, body);
    this.#disputes.set(id, dispute);
    return dispute;
  }

  /**
   * A saved file as uploaded, fetched with the session (a link cannot carry its header) and handed to the browser as a
   * download under its saved name; why it could not come stays beside it, in the merchant's words.
   */
  async #download(id: string, { file_id, filename: name }: SavedFile): Promise<void> {
    if (this.#fetching.has(file_id)) return;
    this.#fetching.add(file_id);
    this.#fileErrors.delete(file_id);
    this.console.update();
    try {
      const file = await this.#send<DisputeFileAnswer['data']>(id, `/files/${encodeURIComponent(file_id)}`);
      const bytes = Uint8Array.from(atob(file.content_base64), (char) => char.charCodeAt(0));
      this.#calls.save({ blob: new Blob([bytes], { type: file.content_type }), filename: file.filename });
    } catch (error) {
      const { status } = error as { status?: number };
      const why = status === 404 ? 'errorFileGone' : status === 401 || status === 403 ? 'errorFileRefused' : '';
      this.#fileErrors.set(file_id, this.text(why || 'errorFileDownload', { name }));
    }
    this.#fetching.delete(file_id);
    this.console.update();
  }

  async #run(step: () => Promise<void>): Promise<void> {
    this.#busy = true;
    this.#done = '';
    this.console.update();
    try {
      await step();
    } catch (error) {
      const { message, status } = error as { message: string; status?: number };
      // A refusal of what was typed goes beside its field, in the merchant's words.
      const name = /^(.+?)(?: is | has |:|'s name)/.exec(message)?.[1] ?? '';
      const field: [Slot, DisputeStringKey | ''] = /service_date/.test(message)
        ? ['service_date', 'errorServiceDate']
        : /at most \d+ files/.test(message)
          ? ['files', 'errorFileCount']
          : /not a PDF|does not match its bytes/.test(message)
            ? ['files', 'errorFileType']
            : /over 5 MB|too large/i.test(message) || status === 413
              ? ['files', 'errorFileSize']
              : /^filename/.test(message)
                ? ['files', 'errorFileName']
                : /before submitting/.test(message)
                  ? ['form', 'errorEmpty']
                  : ['form', ''];
      this.#errors[field[0]] = field[1] ? this.text(field[1], { name }) : message;
    }
    this.#busy = false;
    this.console.update();
  }

  /**
   * Checks the files picked as the service would (rules/evidence-files.ts) and reads them: every one good, or none sent
   * and the first problem beside the field.
   */
  async #files(input: HTMLInputElement | null, dispute: Dispute) {
    const picked = [...(input?.files ?? [])];
    if (dispute.file_count + picked.length > MAX_EVIDENCE_FILES) throw new Error(this.text('errorFileCount'));
    return Promise.all(
      picked.map(async (file) => {
        const name = file.name;
        if (!isSafeFilename(name)) throw new Error(this.text('errorFileName', { name }));
        if (file.size > MAX_EVIDENCE_FILE_BYTES) throw new Error(this.text('errorFileSize', { name }));
        const bytes = new Uint8Array(await file.arrayBuffer());
        if (!sniffEvidenceType(bytes)) throw new Error(this.text('errorFileType', { name }));
        return { filename: name, content_base64: base64(bytes) };
      }),
    );
  }

  #save(form: HTMLFormElement, dispute: Dispute): Promise<void> {
    this.#errors = {};
    const typed = Object.fromEntries(
      FIELDS.map((field) => [field, (form.elements.namedItem(field) as HTMLInputElement).value]),
    );
    if (typed['service_date'] && !/^\d{4}-\d{2}-\d{2}$/.test(typed['service_date'])) {
      this.#errors.service_date = this.text('errorServiceDate');
      this.console.update();
      return Promise.resolve();
    }
    return this.#run(async () => {
      const input = form.elements.namedItem('files') as HTMLInputElement;
      let files;
      try {
        files = await this.#files(input, dispute);
      } catch (error) {
        this.#errors.files = (error as Error).message;
        return;
      }
      await this.#call(dispute.dispute_id, '/evidence', { ...typed, ...(files.length ? { files } : {}) });
      input.value = '';
      this.#done = this.text('evidenceSaved');
    });
  }

  #decide(dispute: Dispute, step: 'submit' | 'accept'): Promise<void> {
    this.#asked = '';
    this.#errors = {};
    return this.#run(async () => {
      const decided = await this.#call(dispute.dispute_id, `/${step}`, {});
      this.#done = this.text(step === 'submit' ? 'evidenceSubmitted' : 'disputeAccepted');
      const detail: DisputeActionDetail = { dispute: decided };
      const type = step === 'submit' ? 'dispute-submitted' : 'dispute-accepted';
      this.console.host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    });
  }

  #ask(step: 'submit' | 'accept'): void {
    this.#asked = step;
    this.console.update();
    void (this.console.host as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete.then(() =>
      this.console.host.shadowRoot?.querySelector<HTMLElement>('[part~="dispute-confirm"] button')?.focus(),
    );
  }

  /** The panel of a disputed sale: loaded the first time it is shown. */
  render(item: TransactionItem): TemplateResult | string {
    const { html } = this.console.lib;
    const id = item.dispute_id!;
    const dispute = this.#disputes.get(id);
    if (!dispute) {
      if (!this.#busy) void this.#run(async () => void (await this.#call(id, '')));
      return html`<p>${this.#errors.form ?? this.console.host.t('loadingDetails')}</p>`;
    }
    return this.#panel(dispute);
  }

  /** "Files saved: …", each file's name a button that downloads it, and why it could not beside it. */
  #saved(dispute: Dispute): TemplateResult {
    const { html } = this.console.lib;
    const [before, after] = this.text('filesSent').split('{names}');
    return html`<p>${before}${dispute.files.map((file, i) => {
      const error = this.#fileErrors.get(file.file_id);
      return html`${i ? ' ' : ''}<button part="file-button" type="button" aria-label=${this.text('downloadFile', { name: file.filename })} aria-busy=${this.#fetching.has(file.file_id)} aria-describedby=${error ? `error-${file.file_id}` : ''} @click=${() => this.#download(dispute.dispute_id, file)}>${file.filename}</button>${error ? html` <span class="error" id=${`error-${file.file_id}`} role="alert">${error}</span>` : ''}`;
    })}${after}</p>`;
  }

  #panel(dispute: Dispute): TemplateResult {
    const { html, formatMoney, formatDateTime } = this.console.lib;
    const { locale } = this.console;
    const money = { amount: formatMoney(dispute.amount, locale), fee: formatMoney(dispute.fee, locale) };
    const left = Date.parse(dispute.evidence_due_by) - Date.now();
    const date = formatDateTime(dispute.evidence_due_by, locale);
    const waiting = dispute.status === 'needs_response' || dispute.status === 'inquiry';
    const open = waiting && left > 0;
    // The time left, said again at each of its minutes while the panel shows (each render arms the next); a tick that
    // finds the panel closed or the table out of the page ends there. The due instant passed, the form goes.
    clearTimeout(this.#tick);
    if (open) {
      const { host } = this.console;
      const shown = () => host.isConnected && host.shadowRoot?.querySelector('[part="dispute"]');
      this.#tick = setTimeout(() => shown() && this.console.update(), (left % MINUTE) + 1);
    }
    const error = (name: Slot) => this.#errors[name] ?? '';
    const described = (name: Slot) => (error(name) ? `error-${name}` : '');
    const beside = (name: Slot) => html`<span class="error" id=${`error-${name}`}>${error(name)}</span>`;
    const field = (name: Field) => {
      const label = this.text(`field${camel(name)}` as DisputeStringKey);
      const value = dispute.evidence[name] ?? '';
      return html`<label>${label}${
        LONG.includes(name)
          ? html`<textarea name=${name} rows="3" maxlength="20000" aria-invalid=${!!error(name)} aria-describedby=${described(name)} .value=${value}></textarea>`
          : html`<input name=${name} maxlength=${name === 'service_date' ? 10 : 200} aria-invalid=${!!error(name)} aria-describedby=${described(name)} .value=${value} />`
      }</label>${beside(name)}`;
    };
    const question =
      this.#asked &&
      html`<div part="dispute-confirm" role="group" aria-label=${this.text(this.#asked === 'submit' ? 'submitEvidence' : 'acceptDispute')}>
        <p>${this.#asked === 'submit' ? this.text('confirmSubmit') : this.text('confirmAccept', money)}</p>
        <button part="confirm-button" type="button" ?disabled=${this.#busy} @click=${() => this.#decide(dispute, this.#asked as 'submit')}>${this.text(this.#asked === 'submit' ? 'yesSubmit' : 'yesAccept')}</button>
        <button part="cancel-button" type="button" @click=${() => ((this.#asked = ''), this.console.update())}>${this.text('disputeCancel')}</button>
      </div>`;
    return html`<section part="dispute" aria-labelledby=${`dispute-${dispute.dispute_id}`}>
      <p class="heading" id=${`dispute-${dispute.dispute_id}`}>${this.text('disputeHeading')} · ${this.text(`dispute${camel(dispute.status)}` as DisputeStringKey)}</p>
      <p class="reason">${this.text(`claim${camel(dispute.reason)}` as DisputeStringKey)}</p>
      <p class="money">${this.text(dispute.funds_withdrawn || dispute.status === 'lost' ? 'disputeMoney' : 'inquiryMoney', money)}</p>
      ${
        waiting
          ? html`<p class="due">${
              left <= 0
                ? this.text('disputeOverdue', { date })
                : left < HOUR
                  ? this.text('disputeDueSoon', { minutes: Math.ceil(left / MINUTE), date })
                  : this.text('disputeDue', {
                      days: Math.floor(left / (24 * HOUR)),
                      hours: Math.floor((left % (24 * HOUR)) / HOUR),
                      date,
                    })
            }</p>`
          : ''
      }
      ${dispute.files.length ? this.#saved(dispute) : ''}
      ${
        open
          ? html`<form part="evidence-form" @submit=${(event: SubmitEvent) => (event.preventDefault(), this.#save(event.target as HTMLFormElement, dispute))}>
          ${FIELDS.map(field)}
          <label>${this.text('fieldFiles')}<input name="files" type="file" multiple accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg" aria-invalid=${!!error('files')} aria-describedby=${described('files')} /></label>${beside('files')}
          <button part="action-button" type="submit" ?disabled=${this.#busy}>${this.text('saveEvidence')}</button>
          <button part="action-button" type="button" ?disabled=${this.#busy} @click=${() => this.#ask('submit')}>${this.text('submitEvidence')}</button>
          <button part="action-button" type="button" ?disabled=${this.#busy} @click=${() => this.#ask('accept')}>${this.text('acceptDispute')}</button>
        </form>`
          : ''
      }
      ${question || ''}
      <p part="row-error" class="error" role="alert">${this.#errors.form ?? ''}</p>
      <p part="row-status" role="status">${this.#done}</p>
    </section>`;
  }
}
