import { css } from 'lit-element';

/**
 * The stylesheet every element starts from. Public theme tokens (`--paykit-*`) are copied into private ones
 * (`--_*`) on :host, as Material Web does: a page themes the elements with one custom property and never reaches
 * into a shadow root. The dark defaults apply inside `.dark`, the class the element puts on what it renders when its
 * `theme` or the page's `color-scheme` asks for dark (a host attribute would be the page's to own); a page that sets
 * a token keeps it in both schemes. The host sets no `color-scheme` of its own, so it inherits the page's.
 *
 * The status and error lines (`p`) sit on the page's own background, whose colour the element cannot know, so
 * their text keeps the page's colour and the state shows as a coloured bar beside it. Empty lines take no room.
 * Buttons are real <button>s with 44px targets, a focus ring only for keyboard focus, and a spinner while busy;
 * a transparent border shows in forced colours.
 */
export const styles = css`
  :host {
    --_primary: var(--paykit-primary-color, #1a56db);
    --_on-primary: var(--paykit-on-primary-color, #fff);
    --_surface: var(--paykit-surface-color, #fff);
    --_text: var(--paykit-text-color, #1f2328);
    --_muted: var(--paykit-muted-color, #57606a);
    --_border: var(--paykit-border-color, #8c959f);
    --_error: var(--paykit-error-color, #b42318);
    --_success: var(--paykit-success-color, #1a7f37);
    --_focus: var(--paykit-focus-ring-color, #0b57d0);
    --_radius: var(--paykit-radius, 8px);
    --_target: var(--paykit-target-size, 44px);
    display: inline-block;
    font-family: var(--paykit-font-family, system-ui, sans-serif);
    font-size: var(--paykit-font-size, 1rem);
    line-height: 1.4;
  }

  .dark {
    --_primary: var(--paykit-primary-color, #8ab4f8);
    --_on-primary: var(--paykit-on-primary-color, #0b1d3a);
    --_surface: var(--paykit-surface-color, #1f2124);
    --_text: var(--paykit-text-color, #e8eaed);
    --_muted: var(--paykit-muted-color, #b4bac2);
    --_border: var(--paykit-border-color, #7d858f);
    --_error: var(--paykit-error-color, #ffb4a9);
    --_success: var(--paykit-success-color, #7ee2a8);
    --_focus: var(--paykit-focus-ring-color, #a8c7fa);
    color-scheme: dark;
  }

  :host([hidden]) {
    display: none !important;
  }

  div {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0 1rem;
  }

  button {
    min-height: var(--_target);
    min-width: var(--_target);
    padding: 0 1.25em;
    border: 1px solid transparent;
    border-radius: var(--_radius);
    background: var(--_primary);
    color: var(--_on-primary);
    font: inherit;
    font-weight: 600;
    cursor: pointer;
  }

  [aria-disabled='true'],
  [aria-busy='true'],
  :disabled {
    opacity: 0.65;
    cursor: default;
  }

  /* The spinner of a busy button: part of the button, so it needs no template of its own. */
  button[aria-busy='true']::before {
    content: '';
    display: inline-block;
    width: 0.8em;
    height: 0.8em;
    margin-inline-end: 0.5em;
    border: 2px solid;
    border-right-color: transparent;
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }

  @keyframes spin {
    to {
      rotate: 1turn;
    }
  }

  @media (prefers-reduced-motion: reduce) {
    * {
      animation-duration: 3s !important;
    }
  }

  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }

  p {
    flex-basis: 100%;
    margin: 0.375em 0 0;
    font-size: 0.875em;
  }

  p:empty {
    display: none;
  }

  [data-state='success'],
  [data-state='sent'],
  .error {
    padding-inline-start: 0.5em;
    border-inline-start: 3px solid var(--_success);
  }

  .error {
    border-color: var(--_error);
  }
`;
