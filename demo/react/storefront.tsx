import { useState } from 'react';
import { PayButton, RequestPaymentButton } from 'paykit/react';
import { describeWidgetEvent, type Outcome } from '../shared/outcomes.ts';
import { PRODUCTS, QR_SPACE_TEXT, SAMPLE_PHONE } from '../shared/products.ts';

/** The storefront in React: the same products, the adapters' typed event props feeding one log. */
export function Storefront() {
  const [phone, setPhone] = useState(SAMPLE_PHONE);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const report = (event: CustomEvent) => {
    const outcome = describeWidgetEvent(event.type, (event.detail ?? {}) as Record<string, unknown>);
    if (outcome) setOutcomes((previous) => [outcome, ...previous]);
  };

  return (
    <>
      <section aria-labelledby="shop">
        <h2 id="shop">Shop</h2>
        <div className="products">
          {PRODUCTS.map((product) => (
            <article className={product.qr ? 'product with-qr' : 'product'} key={product.name}>
              <h3>{product.name}</h3>
              <p>{product.blurb}</p>
              <p className="price">${product.price}</p>
              <PayButton
                amount={product.price}
                description={product.name}
                showQr={product.qr ?? false}
                onPaySuccess={report}
                onPayPending={report}
                onPayError={report}
                onPayCancel={report}
              />
              {product.qr && <div className="qr-space">{QR_SPACE_TEXT}</div>}
            </article>
          ))}
        </div>
      </section>
      <section aria-labelledby="by-text">
        <h2 id="by-text">Ask a customer to pay by text</h2>
        <div className="row">
          <label>
            Customer's phone{' '}
            <input type="tel" autoComplete="tel" value={phone} onChange={(e) => setPhone(e.target.value)} />
          </label>
          <RequestPaymentButton amount="12.00" recipientPhone={phone} onRequestSent={report} onRequestError={report} />
        </div>
      </section>
      <section aria-labelledby="outcomes-title">
        <h2 id="outcomes-title">What the widgets said</h2>
        <div id="outcomes" role="log" aria-live="polite">
          {outcomes.length === 0 && <p className="hint">Events from the widgets appear here.</p>}
          {outcomes.map((outcome, i) => (
            <p key={outcomes.length - i} className={outcome.kind}>
              {outcome.text}
            </p>
          ))}
        </div>
      </section>
    </>
  );
}
