import { css } from 'lit-element';

/** The QR code beside the button, and the modal dialog with the pay page. */
export const payButtonStyles = css`
  figure {
    display: grid;
    justify-items: center;
    margin: 0;
    font-size: 0.875em;
  }

  img {
    width: var(--paykit-qr-size, 144px);
  }

  a {
    display: inline-flex;
    align-items: center;
    min-height: var(--_target);
    color: inherit;
  }

  dialog {
    width: min(480px, 90vw);
    padding: 0;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: var(--_text);
  }

  dialog::backdrop {
    background: #0008;
  }

  header {
    display: flex;
    justify-content: space-between;
    align-items: center;
    padding-inline-start: 1rem;
  }

  h2 {
    margin: 0;
    font-size: 1em;
  }

  .close {
    padding: 0;
    background: none;
    color: inherit;
    outline-offset: -3px;
  }

  iframe {
    display: block;
    width: 100%;
    height: min(640px, 70vh);
    border: solid var(--_border);
    border-width: 1px 0;
  }

  section a {
    margin: 0 1rem;
  }
`;
