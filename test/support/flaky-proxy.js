// Plain JavaScript: started by the Web Test Runner config, which node runs without a TypeScript loader.
import { createServer, request as forward } from 'node:http';
import { once } from 'node:events';

/**
 * A loopback proxy in front of the browser tests' service whose downloads a test can make fail: `POST /__faults`
 * with `{"pattern": "<regular expression of paths>", "times": n}` cuts the next n matching requests (the socket is
 * destroyed, as a dropped connection does), `times: -1` every one until the next call. A page's script tag loaded
 * from this origin then meets real network failures. `GET /__requests` lists the path of every request that reached
 * the proxy, cut or forwarded, oldest first: what left the page.
 */
export async function startFlakyProxy(targetBaseUrl) {
  const target = new URL(targetBaseUrl);
  let fault = { pattern: /^$/, times: 0 };
  const seen = [];
  const server = createServer((incoming, answer) => {
    const path = incoming.url ?? '/';
    if (path === '/__requests') {
      return answer
        .writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
        .end(JSON.stringify(seen));
    }
    if (path === '/__faults') {
      answer.setHeader('access-control-allow-origin', '*');
      answer.setHeader('access-control-allow-headers', 'content-type');
      if (incoming.method === 'OPTIONS') return answer.writeHead(204).end();
      const chunks = [];
      incoming.on('data', (chunk) => chunks.push(chunk));
      incoming.on('end', () => {
        const { pattern, times } = JSON.parse(Buffer.concat(chunks).toString() || '{}');
        fault = { pattern: new RegExp(pattern), times };
        answer.writeHead(204).end();
      });
      return;
    }
    seen.push(path);
    if (fault.times !== 0 && fault.pattern.test(path)) {
      if (fault.times > 0) fault.times--;
      return incoming.socket.destroy();
    }
    const outgoing = forward(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path,
        headers: { ...incoming.headers, host: target.host },
      },
      (reply) => {
        answer.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(answer);
      },
    );
    outgoing.on('error', () => answer.destroy());
    incoming.pipe(outgoing);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { baseUrl: `http://127.0.0.1:${server.address().port}`, stop: () => server.close() };
}
