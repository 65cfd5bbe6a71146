import { expect } from '@open-wc/testing';
import { configure, currentConfig, resolveConfig, resetConfig, PaykitConfigError } from '../../src/config.ts';

describe('configuration', () => {
  beforeEach(() => resetConfig());

  it('needs a public key and a service address', () => {
    expect(() => resolveConfig()).to.throw(PaykitConfigError, /no public key/);
    configure({ publicKey: 'pk_abc' });
    expect(() => resolveConfig()).to.throw(PaykitConfigError, /no service address/);
  });

  it('takes configure() for the page and lets an element override it', () => {
    configure({ publicKey: 'pk_page', baseUrl: 'https://pay.example.com/some/path' });
    expect(resolveConfig()).to.deep.equal({ publicKey: 'pk_page', baseUrl: 'https://pay.example.com' });
    expect(resolveConfig({ publicKey: 'pk_element' })).to.deep.equal({
      publicKey: 'pk_element',
      baseUrl: 'https://pay.example.com',
    });
    expect(resolveConfig({ baseUrl: 'http://localhost:4010' }).baseUrl).to.equal('http://localhost:4010');
  });

  it('merges repeated calls, as when the script tag and the package both configure a page', () => {
    configure({ baseUrl: 'https://pay.example.com' });
    configure({ publicKey: 'pk_later' });
    expect(currentConfig()).to.deep.equal({ baseUrl: 'https://pay.example.com', publicKey: 'pk_later' });
  });

  it('refuses what is not a public key or not a URL', () => {
    expect(() => configure({ baseUrl: 'pay.example.com' })).to.throw(/baseUrl must be an absolute URL/);
    expect(() => configure({ baseUrl: 'javascript:alert(1)' })).to.throw(/must use https/);
    configure({ baseUrl: 'https://pay.example.com', publicKey: 'mk_secret' });
    expect(() => resolveConfig()).to.throw(/is not a public key/);
  });
});

// The script tag's own configuration of the page is tested where the real /paykit.js runs: loader.test.ts.
