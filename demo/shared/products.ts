/** What the Corner Bakery sells, on each of the three storefronts (script tag, React, Vue). */
export interface Product {
  name: string;
  blurb: string;
  /** Decimal text, as the widgets take amounts. */
  price: string;
  /** Also offer the pay link as a QR code. */
  qr?: boolean;
}

export const PRODUCTS: readonly Product[] = [
  { name: 'Croissant', blurb: 'Butter, 24-hour dough.', price: '4.50' },
  {
    name: 'Sourdough loaf',
    blurb: 'Baked this morning. Pay from your phone with the QR code.',
    price: '9.00',
    qr: true,
  },
  { name: 'Birthday cake', blurb: 'Chocolate, serves eight.', price: '32.00' },
];

/**
 * What the QR card shows where its code will be: the code comes after the click, and its place on the card is kept
 * from the start (`.qr-space` in style.css), so the card and its grid row do not grow when it arrives.
 */
export const QR_SPACE_TEXT = 'Click Pay: a QR code to pay from a phone appears here.';

/** The phone the request-payment form starts with: a sandbox number, so the text only reaches the sandbox's messages. */
export const SAMPLE_PHONE = '+14155550123';

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The script-tag storefront's product cards, each with its pay button; the demo's server writes them into the page
 * (demo/backend/plugin.ts), so nothing moves when the page's script runs.
 */
export function productCardsHtml(): string {
  return PRODUCTS.map((product) => {
    const name = escapeHtml(product.name);
    return (
      `<article class="product${product.qr ? ' with-qr' : ''}"><h3>${name}</h3><p>${escapeHtml(product.blurb)}</p>` +
      `<p class="price">$${product.price}</p><pay-button amount="${product.price}" description="${name}"${product.qr ? ' show-qr' : ''}></pay-button>` +
      `${product.qr ? `<div class="qr-space">${escapeHtml(QR_SPACE_TEXT)}</div>` : ''}</article>`
    );
  }).join('\n');
}
