import Fastify from 'fastify';

/** The baseline: a bare Fastify JSON route on the same machine, measured exactly like the service. */
const app = Fastify();
app.get('/bare', async () => ({ result: true, message: 'ok', data: { hello: 'world' } }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
