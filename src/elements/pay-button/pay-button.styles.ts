import { css } from 'lit';
import { buttonStyles, messageStyles, tokens } from '../../shared/styles.ts';
import { modalStyles } from '../../shared/dialog.ts';

export const payButtonStyles = [
  tokens,
  buttonStyles,
  messageStyles,
  modalStyles,
  css`
    :host {
      display: inline-block;
    }
    .base {
      display: inline-flex;
      flex-direction: column;
      align-items: flex-start;
    }
    .row {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 1rem;
    }
    .qr {
      display: flex;
      flex-direction: column;
      align-items: center;
      gap: 0.25rem;
      margin: 0;
      font-size: 0.875em;
    }
    .qr img {
      display: block;
      inline-size: var(--paykit-qr-size, 144px);
      block-size: var(--paykit-qr-size, 144px);
      border-radius: calc(var(--_radius) / 2);
      background: #fff;
    }
    .qr a {
      display: inline-flex;
      align-items: center;
      min-block-size: var(--_target);
      color: var(--_primary);
    }
    .qr a:focus-visible {
      outline: 3px solid var(--_focus);
      outline-offset: 2px;
    }
  `,
];
