import { aTimeout, expect, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../src/index.ts';
import type { TransactionsTable } from '../../src/index.ts';
import type { DisputeActionDetail } from '../../src/elements/events.ts';
import {
  consoleService,
  consoleTable,
  json,
  loadedModules,
  maybePart,
  MODULE,
  ok,
  part,
  shadow,
  type FakeCall,
} from './helpers.ts';
import de from '../../src/locales/de.ts';
import es from '../../src/locales/es.ts';
import fr from '../../src/locales/fr.ts';

/** The console's dispute panel (#46): `<transactions-table>` with a session that grants `disputes`. */
const sale = {
  transaction_id: 'txn_1',
  created_date: '2026-03-10T15:35:15.539Z',
  amount: '40.00',
  net_amount: '38.54',
  card_brand: 'visa',
  last_four: '4242',
  status: 'completed',
  type: 'sale',
  order_id: 'order-1042',
  refunded_amount: '0.00',
  refundable_amount: '0.00',
  voidable_until: null,
  capturable: false,
  dispute_id: 'dp_1',
};
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const dispute = (fields: object = {}) => ({
  dispute_id: 'dp_1',
  merchant_id: 'm_1',
  transaction_id: 'txn_1',
  amount: '40.00',
  fee: '15.00',
  currency: 'USD',
  reason: 'product_not_received',
  status: 'needs_response',
  funds_withdrawn: true,
  // Three days and a few hours from now.
  evidence_due_by: new Date(Date.now() + 3 * DAY + 5 * 3_600_000 + 60_000).toISOString(),
  file_count: 0,
  submitted_at: null,
  closed_at: null,
  created_date: '2026-03-18T09:30:00.000Z',
  updated_date: '2026-03-18T09:30:00.000Z',
  evidence: {},
  files: [],
  history: [{ status: 'needs_response', at: '2026-03-18T09:30:00.000Z' }],
  ...fields,
});

function disputesService(routes: Record<string, (call: FakeCall) => Response> = {}) {
  return consoleService(sale, {
    'GET /transactions/txn_1': () =>
      ok({
        ...sale,
        timeline: [{ at: sale.created_date, what: 'created', amount: '40.00' }],
        refunds: [],
        money: { fee_amount: '1.46', payout: null },
      }),
    'GET /disputes/dp_1': () => ok(dispute()),
    ...routes,
  });
}

/** What a call sent as its JSON body. */
const sent = (call: FakeCall) =>
  call.body as { explanation?: string; files?: { filename: string; content_base64: string }[] };
const text = (node: Element) => node.textContent!.replace(/\s+/g, ' ').trim();
const field = (el: TransactionsTable, name: string) =>
  shadow(el).querySelector<HTMLInputElement>(`[part="evidence-form"] [name="${name}"]`)!;
/** Picks files in the form's file input, as the browser's file chooser would. */
function pick(el: TransactionsTable, files: File[]): void {
  const input = field(el, 'files');
  const picked = new DataTransfer();
  for (const file of files) picked.items.add(file);
  input.files = picked.files;
}
const PDF = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
/** A saved file as the dispute lists it, and as its own route answers it. */
const saved = (file_id: string, filename: string) => ({
  file_id,
  filename,
  content_type: filename.endsWith('.pdf') ? 'application/pdf' : 'image/png',
  size: 14,
  created_date: '2026-03-19T11:02:41.310Z',
});
const fileButton = (el: TransactionsTable, name: string) =>
  Array.from(shadow(el).querySelectorAll<HTMLButtonElement>('[part="file-button"]')).find(
    (button) => button.textContent === name,
  )!;
/** The page's own fetch: a test reads a downloaded blob: URL with it while the fake service stands in for fetch. */
const pageFetch = window.fetch.bind(window);
const dueText = (el: TransactionsTable) => text(shadow(el).querySelector('[part="dispute"] .due')!);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>');

/** Opens the disputed row with the keyboard; resolves when the dispute panel shows. */
async function openDispute(el: TransactionsTable): Promise<void> {
  await waitUntil(() => el.matches(':state(loaded)'), 'the listing');
  shadow(el).querySelector<HTMLElement>('tr[part="row"] [part="details-button"]')!.focus();
  await sendKeys({ press: 'Enter' });
  await waitUntil(() => shadow(el).querySelector('[part="dispute"] .reason'), 'the dispute panel', MODULE);
}

describe('<transactions-table> disputes', function () {
  this.timeout(30000);
  let service: ReturnType<typeof consoleService> | undefined;
  afterEach(() => {
    service?.restore();
    service = undefined;
  });

  it('marks the disputed row and offers the "disputed" filter; without the feature, no panel and no module', async () => {
    service = disputesService();
    const el = await consoleTable({ refunds: true });
    await waitUntil(() => el.matches(':state(loaded)'), 'the listing');
    expect(text(shadow(el).querySelector('tr[part="row"] td:last-child')!)).to.equal('Disputed');
    const statuses = Array.from(shadow(el).querySelectorAll<HTMLOptionElement>('select[name="status"] option'));
    expect(statuses.map((option) => option.value)).to.include('disputed');
    shadow(el).querySelector<HTMLElement>('tr[part="row"] [part="details-button"]')!.click();
    await waitUntil(() => maybePart(el, 'timeline'), 'the details', MODULE);
    expect(maybePart(el, 'dispute')).to.equal(null);
    expect(loadedModules('dispute-view'), 'the dispute panel was not fetched').to.deep.equal([]);
    expect(service.calls.some((call) => call.url.pathname.includes('/disputes'))).to.equal(false);
  });

  for (const width of [1280, 375]) {
    it(`at ${width} px, keyboard only: reason, money, countdown; evidence with a file saved; submit after its question; axe-clean`, async () => {
      await setViewport({ width, height: 900 });
      const posts: FakeCall[] = [];
      service = disputesService({
        'POST /disputes/dp_1/evidence': (call) => {
          posts.push(call);
          return ok(
            dispute({
              evidence: { explanation: sent(call).explanation },
              file_count: 1,
              files: [
                {
                  file_id: 'df_1',
                  filename: 'receipt.pdf',
                  content_type: 'application/pdf',
                  size: 14,
                  created_date: '2026-03-19T11:02:41.310Z',
                },
              ],
            }),
          );
        },
        'POST /disputes/dp_1/submit': (call) => {
          posts.push(call);
          return ok(dispute({ status: 'under_review', submitted_at: '2026-03-19T11:05:12.004Z' }));
        },
      });
      const events: DisputeActionDetail[] = [];
      try {
        const el = await consoleTable({ disputes: true });
        el.addEventListener('dispute-submitted', (event) => events.push(event.detail));
        await openDispute(el);
        expect(loadedModules('dispute-view').length, 'the panel came as a module of its own').to.be.greaterThan(0);
        expect(text(shadow(el).querySelector('[part="dispute"] .reason')!)).to.equal(
          'The card holder says they did not receive what they paid for.',
        );
        expect(text(shadow(el).querySelector('[part="dispute"] .money')!)).to.equal(
          '$40.00 and the $15.00 dispute fee were withdrawn from your balance; both come back if you win.',
        );
        expect(text(shadow(el).querySelector('[part="dispute"] .due')!)).to.match(
          /^Answer within 3 d 5 h \(by .+\)\.$/,
        );
        await expect(el).to.be.accessible();

        // Keyboard: the explanation typed, a file picked (the browser's own chooser), Save pressed with Enter.
        field(el, 'explanation').focus();
        await sendKeys({ type: 'Delivered and signed for.' });
        pick(el, [new File([PDF], 'receipt.pdf', { type: 'application/pdf' })]);
        shadow(el).querySelector<HTMLButtonElement>('[part="evidence-form"] button[type="submit"]')!.focus();
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => posts.length === 1, 'the evidence saved');
        expect(sent(posts[0]!).explanation).to.equal('Delivered and signed for.');
        expect(sent(posts[0]!).files).to.have.length(1);
        expect(sent(posts[0]!).files![0]!.filename).to.equal('receipt.pdf');
        expect(atob(sent(posts[0]!).files![0]!.content_base64)).to.match(/^%PDF-/);
        expect(posts[0]!.headers.get('idempotency-key')).to.be.a('string');
        await waitUntil(
          () => text(shadow(el).querySelector('[part="dispute"] [role="status"]')!) === 'Evidence saved.',
        );
        expect(text(part(el, 'dispute'))).to.contain('Files saved: receipt.pdf');

        // Submit asks first, saying what will happen; the question takes focus, and Enter on its yes sends it.
        const submit = Array.from(shadow(el).querySelectorAll<HTMLButtonElement>('[part="evidence-form"] button')).find(
          (button) => button.textContent === 'Submit evidence…',
        )!;
        submit.focus();
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => maybePart(el, 'dispute-confirm'), 'the question');
        expect(text(part(el, 'dispute-confirm'))).to.contain(
          "Send the evidence saved to the card holder's bank? Nothing can be added or changed afterwards; the bank decides.",
        );
        expect(posts.length, 'nothing sent before the yes').to.equal(1);
        await waitUntil(() => shadow(el).activeElement === maybePart(el, 'confirm-button'), 'focus on the yes');
        await expect(el).to.be.accessible();
        await sendKeys({ press: 'Enter' });
        await waitUntil(() => events.length === 1, 'dispute-submitted');
        expect(posts[1]!.url.pathname).to.equal('/api/v1/widgets/disputes/dp_1/submit');
        expect(events[0]!.dispute.status).to.equal('under_review');
        await waitUntil(() => !maybePart(el, 'evidence-form'), 'no form once submitted');
        expect(text(part(el, 'dispute'))).to.contain("Submitted: the card holder's bank is reviewing it");
        expect(document.documentElement.scrollWidth, 'no sideways scroll').to.be.at.most(
          document.documentElement.clientWidth,
        );
        await expect(el).to.be.accessible();
      } finally {
        await setViewport({ width: 800, height: 600 });
      }
    });
  }

  it('accept asks first, saying the money stays withdrawn; Cancel sends nothing; yes fires dispute-accepted', async () => {
    const posts: FakeCall[] = [];
    service = disputesService({
      'POST /disputes/dp_1/accept': (call) => {
        posts.push(call);
        return ok(dispute({ status: 'lost', closed_at: '2026-03-19T08:00:00.000Z' }));
      },
    });
    const el = await consoleTable({ disputes: true });
    const events: DisputeActionDetail[] = [];
    el.addEventListener('dispute-accepted', (event) => events.push(event.detail));
    await openDispute(el);
    const accept = () =>
      Array.from(shadow(el).querySelectorAll<HTMLButtonElement>('[part="evidence-form"] button')).find(
        (button) => button.textContent === 'Accept the dispute…',
      )!;
    accept().click();
    await waitUntil(() => maybePart(el, 'dispute-confirm'), 'the question');
    expect(text(part(el, 'dispute-confirm'))).to.contain(
      'Accept the dispute? It is lost: $40.00 and the $15.00 fee stay withdrawn from your balance.',
    );
    part(el, 'cancel-button').click();
    await waitUntil(() => !maybePart(el, 'dispute-confirm'), 'the question gone');
    expect(posts).to.have.length(0);
    accept().click();
    await waitUntil(() => maybePart(el, 'confirm-button'), 'asked again');
    part(el, 'confirm-button').click();
    await waitUntil(() => events.length === 1, 'dispute-accepted');
    expect(events[0]!.dispute.status).to.equal('lost');
    expect(posts[0]!.headers.get('idempotency-key')).to.be.a('string');
    await waitUntil(() => text(shadow(el).querySelector('[part="dispute"] [role="status"]')!) !== '');
    expect(text(shadow(el).querySelector('[part="dispute"] [role="status"]')!)).to.equal(
      'Dispute accepted: it is lost.',
    );
    await expect(el).to.be.accessible();
  });

  it('in German: an SVG named .png is refused beside the file field, before anything is sent; a refused date beside its field', async () => {
    const posts: FakeCall[] = [];
    service = disputesService({
      'POST /disputes/dp_1/evidence': (call) => {
        posts.push(call);
        return json(400, {
          result: false,
          code: 'invalid_request',
          message: 'service_date must be a date as YYYY-MM-DD, e.g. "2026-03-13".',
        });
      },
    });
    const el = await consoleTable({ disputes: true }, 'de-DE');
    await openDispute(el);
    expect(text(shadow(el).querySelector('[part="dispute"] .heading')!)).to.equal(
      'Rückbuchung · Wartet auf Ihre Antwort',
    );
    expect(text(shadow(el).querySelector('[part="dispute"] .reason')!)).to.equal(
      'Der Karteninhaber sagt, er habe nicht erhalten, wofür er bezahlt hat.',
    );
    pick(el, [new File([SVG], 'image.png', { type: 'image/png' })]);
    shadow(el).querySelector<HTMLButtonElement>('[part="evidence-form"] button[type="submit"]')!.click();
    await waitUntil(() => shadow(el).querySelector('#error-files')?.textContent, 'the error beside the files');
    expect(shadow(el).querySelector('#error-files')!.textContent).to.equal(
      'image.png ist keine PDF-, PNG- oder JPEG-Datei.',
    );
    expect(field(el, 'files').getAttribute('aria-invalid')).to.equal('true');
    expect(field(el, 'files').getAttribute('aria-describedby')).to.equal('error-files');
    expect(posts, 'nothing sent').to.have.length(0);
    await expect(el).to.be.accessible();

    // The service's refusal of a date goes beside the date, in German too.
    pick(el, []);
    field(el, 'service_date').value = '2026-02-30';
    shadow(el).querySelector<HTMLButtonElement>('[part="evidence-form"] button[type="submit"]')!.click();
    await waitUntil(() => shadow(el).querySelector('#error-service_date')?.textContent, 'the error beside the date');
    expect(posts).to.have.length(1);
    expect(shadow(el).querySelector('#error-service_date')!.textContent).to.equal(
      'Bitte ein Datum als JJJJ-MM-TT, z. B. 2026-03-13.',
    );
    expect(field(el, 'service_date').getAttribute('aria-invalid')).to.equal('true');
    expect(shadow(el).querySelector('#error-files')!.textContent, 'the file error cleared').to.equal('');
  });

  it('a saved file, by keyboard: fetched with the session and handed to the browser under its saved name', async () => {
    let asked: FakeCall | undefined;
    service = disputesService({
      'GET /disputes/dp_1': () => ok(dispute({ file_count: 1, files: [saved('df_1', 'receipt.pdf')] })),
      'GET /disputes/dp_1/files/df_1': (call) => {
        asked = call;
        return ok({ ...saved('df_1', 'receipt.pdf'), content_base64: btoa(new TextDecoder().decode(PDF)) });
      },
    });
    const downloads: { name: string; href: string }[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      downloads.push({ name: this.download, href: this.href });
    };
    try {
      const el = await consoleTable({ disputes: true });
      await openDispute(el);
      const button = fileButton(el, 'receipt.pdf');
      expect(button.localName).to.equal('button');
      expect(button.getAttribute('aria-label')).to.equal('Download receipt.pdf');
      expect(text(part(el, 'dispute'))).to.contain('Files saved: receipt.pdf');
      await expect(el).to.be.accessible();
      button.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => downloads.length === 1, 'the download');
      expect(asked!.url.pathname).to.equal('/api/v1/widgets/disputes/dp_1/files/df_1');
      expect(asked!.headers.get('authorization')).to.equal('Bearer wst_fake');
      expect(downloads[0]!.name).to.equal('receipt.pdf');
      expect(downloads[0]!.href).to.match(/^blob:/);
      const blob = await (await pageFetch(downloads[0]!.href)).blob();
      expect(blob.type).to.equal('application/pdf');
      expect(new Uint8Array(await blob.arrayBuffer())).to.deep.equal(PDF);
      await waitUntil(() => button.getAttribute('aria-busy') === 'false', 'no longer busy');
      expect(shadow(el).activeElement, 'focus stays on the file').to.equal(button);
      expect(shadow(el).querySelector('#error-df_1'), 'no error beside it').to.equal(null);
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
  });

  it('in French: a file gone (404), refused (403) or unreachable is said beside it, and a retry that works clears it', async () => {
    let reachable = false;
    const files = [saved('df_1', 'facture.pdf'), saved('df_2', 'colis.png'), saved('df_3', 'recu.pdf')];
    service = disputesService({
      'GET /disputes/dp_1': () => ok(dispute({ file_count: 3, files })),
      // df_1 has no route: the fake service answers 404, as the service does for a file that is not there.
      'GET /disputes/dp_1/files/df_2': () =>
        json(403, { result: false, code: 'forbidden', message: 'This session does not grant disputes.' }),
      // No answer (the fetch itself fails), until the network comes back.
      'GET /disputes/dp_1/files/df_3': () => {
        if (!reachable) throw new TypeError('Failed to fetch');
        return ok({ ...files[2]!, content_base64: btoa(new TextDecoder().decode(PDF)) });
      },
    });
    const downloads: string[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    };
    try {
      const el = await consoleTable({ disputes: true }, 'fr-FR');
      await openDispute(el);
      await waitUntil(() => fileButton(el, 'facture.pdf')?.getAttribute('aria-label') === 'Télécharger facture.pdf');
      for (const name of ['facture.pdf', 'colis.png', 'recu.pdf']) {
        fileButton(el, name).focus();
        await sendKeys({ press: 'Enter' });
      }
      const beside = (id: string) => shadow(el).querySelector(`#error-${id}`)?.textContent ?? '';
      await waitUntil(() => beside('df_1') && beside('df_2') && beside('df_3'), 'an error beside each file');
      expect(beside('df_1')).to.equal("Impossible de télécharger facture.pdf : il n'est plus là.");
      expect(beside('df_2')).to.equal("Impossible de télécharger colis.png : cette console n'y est pas autorisée.");
      expect(beside('df_3')).to.equal('Impossible de télécharger recu.pdf. Réessayez.');
      for (const [id, name] of [
        ['df_1', 'facture.pdf'],
        ['df_2', 'colis.png'],
        ['df_3', 'recu.pdf'],
      ] as const) {
        expect(fileButton(el, name).getAttribute('aria-describedby')).to.equal(`error-${id}`);
        expect(shadow(el).querySelector(`#error-${id}`)!.getAttribute('role')).to.equal('alert');
      }
      expect(downloads).to.deep.equal([]);
      await expect(el).to.be.accessible();

      reachable = true;
      fileButton(el, 'recu.pdf').click();
      await waitUntil(() => downloads.length === 1, 'the download, once the service answers');
      expect(downloads).to.deep.equal(['recu.pdf']);
      await waitUntil(() => !beside('df_3'), 'its error gone');
      expect(fileButton(el, 'recu.pdf').getAttribute('aria-describedby')).to.equal('');
      expect(beside('df_1'), 'the others stay').to.contain('facture.pdf');
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
  });

  describe('the time left to answer, on a held clock', () => {
    const realNow = Date.now;
    let now = 0;
    /** How long before the due instant the dispute is, when the service answers. */
    let dueIn = 0;
    beforeEach(() => {
      now = realNow();
      Date.now = () => now;
      service = disputesService({
        'GET /disputes/dp_1': () => ok(dispute({ evidence_due_by: new Date(Date.now() + dueIn).toISOString() })),
      });
    });
    afterEach(() => {
      Date.now = realNow;
    });

    it('is said again as it passes while the panel is open: hours, its last minutes, then overdue and no form', async () => {
      // 100 ms before the hour changes: the panel must say it again by itself once the clock moves past.
      dueIn = 3 * DAY + 5 * HOUR + 100;
      const el = await consoleTable({ disputes: true });
      await openDispute(el);
      expect(dueText(el)).to.match(/^Answer within 3 d 5 h \(by .+\)\.$/);
      now += 200;
      await waitUntil(() => /^Answer within 3 d 4 h /.test(dueText(el)), 'the next hour said', { timeout: 3000 });

      // Its last minute: counted in minutes, then over; the form goes with it (the service takes nothing after).
      dueIn = 100;
      const last = await consoleTable({ disputes: true });
      await openDispute(last);
      expect(dueText(last)).to.match(/^Answer within 1 min \(by .+\)\.$/);
      expect(maybePart(last, 'evidence-form')).to.exist;
      now += 200;
      await waitUntil(() => dueText(last).startsWith('The time to answer ended on'), 'overdue', { timeout: 3000 });
      expect(maybePart(last, 'evidence-form')).to.equal(null);
      await expect(last).to.be.accessible();
    });

    it('stops when its row is closed or the table leaves the page, and starts again when the row reopens', async () => {
      // The clock held 100 ms before a minute: the panel looks again every 101 ms, each time asking for a render.
      dueIn = 3 * DAY + 5 * HOUR + 100;
      const el = await consoleTable({ disputes: true });
      await openDispute(el);
      let renders = 0;
      const requestUpdate = el.requestUpdate.bind(el);
      el.requestUpdate = (...args: Parameters<typeof requestUpdate>) => (renders++, requestUpdate(...args));
      const rendersWithin = async (ms: number) => {
        await el.updateComplete;
        renders = 0;
        await aTimeout(ms);
        return renders;
      };
      expect(await rendersWithin(400), 'ticking while open').to.be.greaterThan(0);
      shadow(el).querySelector<HTMLElement>('tr[part="row"] [part="details-button"]')!.click();
      await waitUntil(() => !maybePart(el, 'dispute'), 'the row closed');
      expect(await rendersWithin(400), 'no tick once closed').to.equal(0);
      shadow(el).querySelector<HTMLElement>('tr[part="row"] [part="details-button"]')!.click();
      await waitUntil(() => maybePart(el, 'dispute'), 'the row open again');
      expect(await rendersWithin(400), 'ticking again').to.be.greaterThan(0);
      el.remove();
      expect(await rendersWithin(400), 'no tick once the table is gone').to.equal(0);
    });
  });

  it('in English, French, Spanish and German: every word of the panel in its language, the reason in plain words; axe-clean', async () => {
    const languages = [
      ['en-US', undefined],
      ['fr-FR', fr],
      ['es-ES', es],
      ['de-DE', de],
    ] as const;
    const english = new Set<string>();
    for (const [locale, texts] of languages) {
      service?.restore();
      service = disputesService({
        'GET /disputes/dp_1': () => ok(dispute({ file_count: 1, files: [saved('df_1', 'receipt.pdf')] })),
      });
      const el = await consoleTable({ disputes: true }, locale);
      const words = texts?.transactionsTable;
      await openDispute(el);
      const heading = `${words?.disputeHeading ?? 'Dispute'} · ${words?.disputeNeedsResponse ?? 'Waiting for your answer'}`;
      await waitUntil(() => text(shadow(el).querySelector('[part="dispute"] .heading')!) === heading, locale);
      // The reason as the card holder's claim, never the service's code.
      expect(text(shadow(el).querySelector('[part="dispute"] .reason')!)).to.equal(
        words?.claimProductNotReceived ?? 'The card holder says they did not receive what they paid for.',
      );
      const [dueBefore] = (words?.disputeDue ?? 'Answer within {days} d {hours} h (by {date}).').split('{date}');
      expect(dueText(el).startsWith(dueBefore!.replace('{days}', '3').replace('{hours}', '5'))).to.equal(true);
      // Every state's words at once: a file's refusal beside it (no route: 404) and the question before a submit.
      fileButton(el, 'receipt.pdf').click();
      await waitUntil(() => shadow(el).querySelector('#error-df_1'), `${locale}: the file's error`);
      Array.from(shadow(el).querySelectorAll<HTMLButtonElement>('[part="evidence-form"] button'))[1]!.click();
      await waitUntil(() => maybePart(el, 'dispute-confirm'), `${locale}: the question`);

      // What the panel shows and names: its text nodes, and the names given to its controls.
      const panel = part(el, 'dispute');
      const shown: string[] = [];
      const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) shown.push(node.textContent!.trim());
      for (const named of panel.querySelectorAll('[aria-label]')) shown.push(named.getAttribute('aria-label')!);
      // Words, not the data shown with them (the file's name).
      const strings = shown.filter((one) => /\p{L}/u.test(one) && one !== 'receipt.pdf');
      expect(strings.length, `${locale}: the panel's words`).to.be.greaterThan(20);
      if (!texts) strings.forEach((one) => english.add(one));
      else
        expect(
          strings.filter((one) => english.has(one)),
          `${locale}: English left`,
        ).to.deep.equal([]);
      await expect(el).to.be.accessible();
      el.remove();
    }
  });
});
