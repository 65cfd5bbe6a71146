/** The client every bench service is started with (PAYKIT_CLIENT_ID/SECRET), and how the bench's calls present it. */
export const BENCH_CLIENT = { PAYKIT_CLIENT_ID: 'bench_client', PAYKIT_CLIENT_SECRET: 'bench-secret-0123456789' };
export const BENCH_AUTH = { id: BENCH_CLIENT.PAYKIT_CLIENT_ID, secret: BENCH_CLIENT.PAYKIT_CLIENT_SECRET };
export const basicAuthorization = ({ id, secret }: { id: string; secret: string }) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
