import { css } from 'lit-element';

/**
 * The frame, the date-range form, the table and the paging controls. The host is a grid of one column that may
 * shrink to nothing, so the page's layout decides the element's width, also as a flex item or in a grid or table
 * cell, where the table's own width would otherwise become the element's minimum and push the page sideways: the
 * table scrolls in its region instead. A page that sizes the element to its content still gets the table's width.
 */
export const transactionsTableStyles = css`
  :host {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
  }

  div {
    display: block;
    padding: 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: var(--_text);
  }

  form,
  nav {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0.75rem;
  }

  nav {
    justify-content: end;
  }

  label {
    display: grid;
    font-size: 0.875em;
  }

  input,
  select {
    min-height: var(--_target);
    font: inherit;
  }

  [aria-invalid='true'] {
    outline: 2px solid var(--_error);
  }

  button {
    background: none;
    color: inherit;
    border-color: var(--_border);
  }

  [part='apply-button'] {
    background: var(--_primary);
    color: var(--_on-primary);
  }

  [role='region'] {
    overflow-x: auto;
    padding: 0;
    border: 0;
  }

  /* Inherited even on a page in quirks mode, whose tables otherwise take black text and the default font size. */
  table {
    width: 100%;
    border-collapse: collapse;
    color: inherit;
    font-size: inherit;
  }

  th,
  td {
    padding: 0.5rem;
    border-bottom: 1px solid var(--_border);
    text-align: start;
  }

  td:nth-child(2),
  th:nth-child(2) {
    text-align: end;
  }

  th,
  nav span,
  [data-state='empty'] {
    color: var(--_muted);
  }

  /* The row's date opens its details: underlined text with the button role. */
  [part='details-button'] {
    cursor: pointer;
    text-decoration: underline;
  }

  [part='details'] > td {
    padding: 0.5rem 0.5rem 1rem;
  }

  dl {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr);
    gap: 0.25rem 1rem;
    margin: 0;
  }

  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }

  ol,
  ul {
    margin: 0;
    padding-inline-start: 1.25rem;
  }

  .heading {
    margin: 0.75rem 0 0.25rem;
    font-weight: 600;
  }

  .actions,
  .action {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0.5rem 0.75rem;
    padding: 0;
    border: 0;
  }

  .actions p {
    flex-basis: 100%;
    margin: 0;
    color: var(--_muted);
  }

  /*
   * A phone: each row a card of two lines (date and amount, then card and status), the header row read by screen
   * readers only; nothing is clipped and nothing scrolls sideways.
   */
  @media (max-width: 40rem) {
    thead {
      position: absolute;
      clip-path: inset(50%);
    }

    tr {
      display: grid;
      grid-template-columns: minmax(0, 1fr) auto;
      padding: 0.5rem 0;
      border-bottom: 1px solid var(--_border);
    }

    td {
      padding: 0.125rem 0.25rem;
      border: 0;
      overflow-wrap: anywhere;
    }

    td:nth-child(4) {
      text-align: end;
    }
  }

  /* Read by screen readers, not shown. */
  caption {
    position: absolute;
    clip-path: inset(50%);
  }
`;
