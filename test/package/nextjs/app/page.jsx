import { randomUUID } from 'node:crypto';
import Script from 'next/script';
import { html, renderToString } from 'paykit/ssr';

// Rendered at each request: the service's address and key come from the environment the test starts Next.js with.
export const dynamic = 'force-dynamic';

export default async function Checkout() {
  const widgets = await renderToString(
    html`<pay-button amount="25.00" order-id=${`order-${randomUUID()}`} description="Cake"></pay-button>`,
  );
  return (
    <main>
      <h1>Checkout</h1>
      <div suppressHydrationWarning dangerouslySetInnerHTML={{ __html: widgets }} />
      <Script
        type="module"
        src={`${process.env.PAYKIT_URL}/paykit.js`}
        data-public-key={process.env.PAYKIT_PUBLIC_KEY}
        crossOrigin="anonymous"
      />
    </main>
  );
}
