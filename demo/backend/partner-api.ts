/**
 * How the demo's back end calls the service: as a partner's server would, with the client secret,
 * which never reaches the browser.
 */
export interface PartnerApi {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  serviceUrl: string;
}

export function partnerApi(serviceUrl: string, clientId: string, secret: string): PartnerApi {
  const authorization = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
  return {
    serviceUrl,
    async call(method, path, body) {
      const response = await fetch(`${serviceUrl}/api/v1${path}`, {
        method,
        headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
  };
}
