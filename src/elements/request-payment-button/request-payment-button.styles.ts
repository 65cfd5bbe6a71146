import { css } from 'lit';
import { buttonStyles, messageStyles, tokens } from '../../shared/styles.ts';

export const requestPaymentButtonStyles = [
  tokens,
  buttonStyles,
  messageStyles,
  css`
    :host {
      display: inline-block;
    }
    .base {
      display: inline-flex;
      flex-direction: column;
      align-items: flex-start;
    }
    .check {
      inline-size: 1em;
      block-size: 1em;
    }
  `,
];
