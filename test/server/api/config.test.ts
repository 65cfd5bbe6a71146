import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readConfig } from '../../../server/platform/config.ts';

test('defaults follow the contract', () => {
  const config = readConfig({});
  assert.equal(config.port, 4010);
  assert.equal(config.environment, 'sandbox');
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.dataDir, '.paykit');
  assert.equal(config.publicUrl, 'http://localhost:4010');
  assert.equal(config.seedClient, undefined);
  assert.equal(config.host, '127.0.0.1', 'a sandbox listens on loopback unless HOST says otherwise');
});

test('production listens on every interface; HOST chooses in either environment', () => {
  assert.equal(readConfig({ PAYKIT_ENV: 'production' }).host, '0.0.0.0');
  assert.equal(readConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
  assert.equal(readConfig({ PAYKIT_ENV: 'production', HOST: '10.1.2.3' }).host, '10.1.2.3');
});

test('settings are read and checked', () => {
  const config = readConfig({
    PORT: '8080',
    PAYKIT_ENV: 'production',
    DATABASE_URL: 'postgres://u:p@db/paykit',
    PAYKIT_DATA_DIR: 'memory',
    PAYKIT_PUBLIC_URL: 'https://pay.example.com/',
    PAYKIT_CLIENT_ID: 'partner',
    PAYKIT_CLIENT_SECRET: 'secret-secret-secret',
  });
  assert.equal(config.port, 8080);
  assert.equal(config.publicUrl, 'https://pay.example.com');
  assert.deepEqual(config.seedClient, { id: 'partner', secret: 'secret-secret-secret' });
  assert.throws(() => readConfig({ PORT: 'eighty' }), /PORT must be a port number, not "eighty"/);
  assert.throws(() => readConfig({ PAYKIT_ENV: 'live' }), /PAYKIT_ENV must be "sandbox" or "production"/);
  assert.throws(() => readConfig({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL must start with postgres:\/\//);
  assert.throws(
    () => readConfig({ PAYKIT_CLIENT_ID: 'only-id' }),
    /set both PAYKIT_CLIENT_ID and PAYKIT_CLIENT_SECRET/,
  );
  assert.throws(() => readConfig({ PAYKIT_PUBLIC_URL: 'not a url' }), /PAYKIT_PUBLIC_URL must be an origin/);
});

test('the request log keeps no token, key or query string', async () => {
  const { requestLogger, redactTokens } = await import('../../../server/plugins/request-log.ts');
  assert.equal(redactTokens('/onboard/obl_AbC-123_x'), '/onboard/obl_…');
  assert.equal(redactTokens('/api/v1/auth/onboarding/ost_secret'), '/api/v1/auth/onboarding/ost_…');
  assert.equal(redactTokens('/pay/pl_AbC-1/qr.png'), '/pay/pl_…/qr.png');
  const logged = requestLogger('info').serializers.req({
    method: 'GET',
    url: '/api/v1/customers?merchant_key=mk_secret',
    ip: '127.0.0.1',
  });
  assert.deepEqual(logged, { method: 'GET', path: '/api/v1/customers', remoteAddress: '127.0.0.1' });
});

test('proxies are trusted only when named, and connection bounds are read and checked', () => {
  assert.deepEqual(readConfig({}).network, {
    trustProxy: [],
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 72_000,
    maxConnections: 1000,
    maxConnectionsPerAddress: 100,
  });
  const network = readConfig({
    PAYKIT_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback',
    PAYKIT_HEADERS_TIMEOUT_MS: '5000',
    PAYKIT_REQUEST_TIMEOUT_MS: '20000',
    PAYKIT_KEEP_ALIVE_TIMEOUT_MS: '65000',
    PAYKIT_MAX_CONNECTIONS: '200',
    PAYKIT_MAX_CONNECTIONS_PER_ADDRESS: '20',
  }).network;
  assert.deepEqual(network, {
    trustProxy: ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback'],
    headersTimeoutMs: 5000,
    requestTimeoutMs: 20_000,
    keepAliveTimeoutMs: 65_000,
    maxConnections: 200,
    maxConnectionsPerAddress: 20,
  });
  for (const wrong of ['proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/1', '*', 'true']) {
    assert.throws(
      () => readConfig({ PAYKIT_TRUST_PROXY: wrong }),
      /PAYKIT_TRUST_PROXY must list proxy addresses or CIDR ranges/,
      wrong,
    );
  }
  assert.throws(() => readConfig({ PAYKIT_MAX_CONNECTIONS: '0' }), /PAYKIT_MAX_CONNECTIONS must be 1 to 1000000/);
  assert.throws(
    () => readConfig({ PAYKIT_HEADERS_TIMEOUT_MS: 'soon' }),
    /PAYKIT_HEADERS_TIMEOUT_MS must be 100 to 600000/,
  );
  assert.throws(
    () => readConfig({ PAYKIT_HEADERS_TIMEOUT_MS: '40000' }),
    /PAYKIT_HEADERS_TIMEOUT_MS must not exceed PAYKIT_REQUEST_TIMEOUT_MS/,
  );
});
