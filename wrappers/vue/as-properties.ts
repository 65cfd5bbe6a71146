/**
 * The element's props as DOM properties: the `.` prefix makes Vue set `el.orderId`, never an `orderId` attribute,
 * also before the element is defined. Unset props are left out, so the element keeps its own defaults.
 */
export function asProperties(props: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) if (value !== undefined) out[`.${key}`] = value;
  return out;
}
