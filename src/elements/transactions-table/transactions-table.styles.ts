import { css } from 'lit';
import { buttonStyles, messageStyles, tokens } from '../../shared/styles.ts';

export const transactionsTableStyles = [
  tokens,
  buttonStyles,
  messageStyles,
  css`
    :host {
      display: block;
    }
    .base {
      box-sizing: border-box;
      padding: 1rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--_surface);
      color: var(--_text);
    }
    .filters {
      display: flex;
      flex-wrap: wrap;
      align-items: flex-end;
      gap: 0.75rem;
      margin-block-end: 0.75rem;
    }
    .field {
      display: flex;
      flex-direction: column;
      gap: 0.25rem;
      font-size: 0.875em;
      font-weight: 500;
    }
    .field input {
      box-sizing: border-box;
      min-block-size: var(--_target);
      padding: 0 0.5rem;
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) / 2);
      background: var(--_surface);
      color: var(--_text);
      font: inherit;
      font-weight: 400;
      color-scheme: light dark;
    }
    .field input:focus-visible {
      outline: 3px solid var(--_focus);
      outline-offset: 1px;
    }
    .field input[aria-invalid='true'] {
      border-color: var(--_error);
    }
    .scroller {
      overflow-x: auto;
    }
    .scroller:focus-visible {
      outline: 3px solid var(--_focus);
      outline-offset: 2px;
    }
    table {
      inline-size: 100%;
      border-collapse: collapse;
      font-variant-numeric: tabular-nums;
    }
    table[aria-busy='true'] {
      opacity: 0.6;
    }
    th,
    td {
      padding: 0.625rem 0.75rem;
      border-block-end: 1px solid color-mix(in srgb, var(--_border) 45%, transparent);
      text-align: start;
      white-space: nowrap;
    }
    th {
      font-size: 0.8125em;
      font-weight: 600;
      color: var(--_muted);
      text-transform: uppercase;
      letter-spacing: 0.03em;
    }
    .amount {
      text-align: end;
    }
    .pagination {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: flex-end;
      gap: 0.75rem;
      margin-block-start: 0.75rem;
    }
    .page-status {
      color: var(--_muted);
      font-size: 0.875em;
    }
    .status {
      margin-block: 0.5rem;
    }
    .status[data-state='empty'] {
      border: 0;
      padding: 1.5rem 0;
      text-align: center;
      color: var(--_muted);
      font-size: 1em;
    }
    .retry {
      margin-block-start: 0.5rem;
    }
  `,
];
