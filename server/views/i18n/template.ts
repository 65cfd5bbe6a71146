import { escapeHtml, raw, type Html } from '../html.ts';

/** Fills `{name}` in a text with `values.name`; unknown names stay as they are. */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The same for markup: the text is escaped, Html values are inserted as they are, others escaped. */
export function fillHtml(template: string, values: Record<string, Html | string | number>): Html {
  return raw(
    template
      .split(/(\{\w+\})/)
      .map((part) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        if (name === undefined || !(name in values)) return escapeHtml(part);
        const value = values[name]!;
        return typeof value === 'object' ? value.text : escapeHtml(String(value));
      })
      .join(''),
  );
}
