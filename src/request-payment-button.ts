/** `paykit/request-payment-button`: defines `<request-payment-button>` alone, for a bundle that needs no other Paykit element. */
import { defineElement } from './shared/define.ts';
import { RequestPaymentButton } from './elements/request-payment-button/request-payment-button.ts';

export {
  RequestPaymentButton,
  requestPaymentButtonStrings,
  type RequestPaymentButtonStringKey,
} from './elements/request-payment-button/request-payment-button.ts';

defineElement('request-payment-button', RequestPaymentButton);
