import Fastify from 'fastify';

// The baseline of bench/footprint.ts: Fastify alone, started the way the service is (tsx), answering /health.
const app = Fastify();
app.get('/health', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
