/** Markup that is already safe to send: the only values `html` inserts without escaping. */
export class Html {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  toString(): string {
    return this.text;
  }
}

/** What may be interpolated; null, undefined and false render nothing, so `${ok && html`…`}` works. */
export type Interpolation = Html | string | number | boolean | null | undefined | readonly Interpolation[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: Interpolation): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** Tagged template: every interpolated value is escaped unless it is Html (arrays of Html join). */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Trusted markup, inserted as is. */
export function raw(text: string): Html {
  return new Html(text);
}

/** Attributes from a record: strings become `name="value"`, true a bare name, false and undefined nothing. */
export function attributes(values: Record<string, string | number | boolean | undefined>): Html {
  const parts = Object.entries(values).flatMap(([name, value]) => {
    if (value === undefined || value === false) return [];
    return value === true ? [` ${name}`] : [` ${name}="${escapeHtml(String(value))}"`];
  });
  return raw(parts.join(''));
}
