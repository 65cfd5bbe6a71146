/** `paykit/pay-button`: defines `<pay-button>` alone, for a bundle that needs no other Paykit element. */
import { defineElement } from './shared/define.ts';
import { PayButton } from './elements/pay-button/pay-button.ts';

export {
  PayButton,
  payButtonStrings,
  type PayMode,
  type PayButtonStringKey,
} from './elements/pay-button/pay-button.ts';

defineElement('pay-button', PayButton);
