import { randomUUID } from 'node:crypto';
import Script from 'next/script';
import { html, renderToString } from 'paykit/ssr';

// The recipe without its two attributes (suppressHydrationWarning, crossOrigin): the test's control, which shows
// that the console problems it looks for are there when the recipe is not followed.
export const dynamic = 'force-dynamic';

export default async function CheckoutWithoutAttributes() {
  const widgets = await renderToString(
    html`<pay-button amount="25.00" order-id=${`order-${randomUUID()}`} description="Cake"></pay-button>`,
  );
  return (
    <main>
      <h1>Checkout</h1>
      <div dangerouslySetInnerHTML={{ __html: widgets }} />
      <Script
        type="module"
        src={`${process.env.PAYKIT_URL}/paykit.js`}
        data-public-key={process.env.PAYKIT_PUBLIC_KEY}
      />
    </main>
  );
}
