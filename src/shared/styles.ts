import { css } from 'lit';

/**
 * Public theme tokens (`--paykit-*`) copied into private ones (`--_*`) on :host, as Material Web does: a
 * page themes every element with one custom property and never reaches into a shadow root. Dark defaults
 * follow prefers-color-scheme; a page that sets a token keeps it in both schemes.
 */
export const tokens = css`
  :host {
    --_primary: var(--paykit-primary-color, #1a56db);
    --_on-primary: var(--paykit-on-primary-color, #ffffff);
    --_surface: var(--paykit-surface-color, #ffffff);
    --_text: var(--paykit-text-color, #1f2328);
    --_muted: var(--paykit-muted-color, #57606a);
    --_border: var(--paykit-border-color, #8c959f);
    --_error: var(--paykit-error-color, #b42318);
    --_success: var(--paykit-success-color, #1a7f37);
    --_focus: var(--paykit-focus-ring-color, #0b57d0);
    --_radius: var(--paykit-radius, 8px);
    --_font: var(--paykit-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_font-size: var(--paykit-font-size, 1rem);
    --_target: var(--paykit-target-size, 44px);
    font-family: var(--_font);
    font-size: var(--_font-size);
    line-height: 1.4;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_primary: var(--paykit-primary-color, #8ab4f8);
      --_on-primary: var(--paykit-on-primary-color, #0b1d3a);
      --_surface: var(--paykit-surface-color, #1f2124);
      --_text: var(--paykit-text-color, #e8eaed);
      --_muted: var(--paykit-muted-color, #b4bac2);
      --_border: var(--paykit-border-color, #7d858f);
      --_error: var(--paykit-error-color, #ffb4a9);
      --_success: var(--paykit-success-color, #7ee2a8);
      --_focus: var(--paykit-focus-ring-color, #a8c7fa);
    }
  }
  :host([hidden]) {
    display: none !important;
  }
`;

/** Buttons: real <button>s, 44px targets, a focus ring only for keyboard focus, busy and disabled looks. */
export const buttonStyles = css`
  .button {
    box-sizing: border-box;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5em;
    min-height: var(--_target);
    min-width: var(--_target);
    padding: 0.5em 1.25em;
    border: 1px solid transparent;
    border-radius: var(--_radius);
    background: var(--_primary);
    color: var(--_on-primary);
    font: inherit;
    font-weight: 600;
    cursor: pointer;
    transition: filter 120ms ease;
  }
  .button:hover {
    filter: brightness(1.08);
  }
  .button:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .button[aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.65;
    filter: none;
  }
  .button[aria-busy='true'] {
    cursor: progress;
  }
  .button.secondary {
    background: transparent;
    color: var(--_text);
    border-color: var(--_border);
  }
  .spinner {
    inline-size: 1em;
    block-size: 1em;
    border: 2px solid currentColor;
    border-inline-end-color: transparent;
    border-radius: 50%;
    animation: paykit-spin 0.8s linear infinite;
  }
  @keyframes paykit-spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation-duration: 2.4s;
    }
    .button {
      transition: none;
    }
  }
  @media (forced-colors: active) {
    .button {
      border-color: ButtonText;
    }
    .button[aria-disabled='true'] {
      color: GrayText;
    }
  }
`;

/**
 * The announced lines under a control: status (polite) and error (alert). They sit on the page's own
 * background, whose colour the element cannot know, so their text keeps the page's colour and the state
 * shows as a coloured bar beside it (readable on light and dark pages alike). Empty lines take no room.
 */
export const messageStyles = css`
  .status,
  .error {
    margin: 0.375em 0 0;
    font-size: 0.875em;
    color: inherit;
  }
  .status:empty,
  .error:empty {
    display: none;
  }
  .status[data-state='success'],
  .error {
    padding-inline-start: 0.5em;
    border-inline-start: 3px solid var(--_success);
  }
  .error {
    border-inline-start-color: var(--_error);
    font-weight: 500;
  }
  .visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`;
