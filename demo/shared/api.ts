/** How the demo pages talk to the demo's back end: never with the client secret, which stays on the server. */

export interface Answer<T> {
  result: boolean;
  message?: string;
  data: T;
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  try {
    const response = await fetch(path, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    return await response.json();
  } catch (error) {
    return {
      result: false,
      message: `The demo's back end did not answer: ${(error as Error).message}`,
      data: undefined as T,
    };
  }
}

export interface DemoConfig {
  serviceUrl: string;
  publicKey: string;
  merchantId: string;
}

export async function demoConfig(): Promise<DemoConfig> {
  const answer = await call<DemoConfig>('GET', '/demo-api/config');
  if (!answer.result) throw new Error(answer.message);
  return answer.data;
}

/** Replaces a status area's content with one line: plain information, good news or an error. */
export function show(target: HTMLElement, content: Node | string, kind: 'info' | 'ok' | 'error' = 'info'): void {
  const paragraph = document.createElement('p');
  paragraph.className = kind === 'info' ? 'hint' : kind;
  paragraph.append(content);
  target.replaceChildren(paragraph);
}

export const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

/** Wires a form to `handle` instead of a native submit: its button is enabled once wired, and disabled while the handler runs. */
export function onSubmit(form: HTMLFormElement, handle: (data: Record<string, string>) => Promise<void>): void {
  const button = form.querySelector('button')!;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      await handle(Object.fromEntries(new FormData(form)) as Record<string, string>);
    } finally {
      button.disabled = false;
    }
  });
  // The page's forms come disabled, so that no click reaches them before this: it would submit them natively.
  button.disabled = false;
}
