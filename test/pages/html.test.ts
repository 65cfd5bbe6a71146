import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { attributes, html, raw } from '../../server/views/html.ts';
import { renderPage } from '../../server/views/layout.ts';

describe('html templates', () => {
  test('escape every interpolated value unless it is already Html', () => {
    const name = `<script>alert("x")</script> & 'co'`;
    assert.equal(
      html`<p title="${name}">${name}</p>`.text,
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</p>',
    );
    assert.equal(html`<div>${html`<b>${'<i>'}</b>`}${raw('<hr>')}</div>`.text, '<div><b>&lt;i&gt;</b><hr></div>');
  });

  test('join arrays and render nothing for null, undefined and false', () => {
    assert.equal(
      html`<ul>${['a<', 'b'].map((x) => html`<li>${x}</li>`)}</ul>`.text,
      '<ul><li>a&lt;</li><li>b</li></ul>',
    );
    assert.equal(html`${null}${undefined}${false}${0}|${[['x', ['&']]]}`.text, '0|x&amp;');
  });

  test('attributes: strings quoted and escaped, true bare, false and undefined left out', () => {
    assert.equal(
      attributes({ value: '"1" & 2', required: true, checked: false, maxlength: 5, hint: undefined }).text,
      ' value="&quot;1&quot; &amp; 2" required maxlength="5"',
    );
  });

  test('renderPage makes a whole document with one main landmark and one h1', () => {
    const page = renderPage({ title: 'Fish & <chips>', body: html`<p>Hi</p>`, status: 418 });
    assert.equal(page.status, 418);
    assert.match(
      page.html,
      /^<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">/,
    );
    assert.ok(page.html.includes('<title>Fish &amp; &lt;chips&gt; · Paykit</title>'));
    assert.equal(page.html.match(/<style>/g)?.length, 1);
    assert.match(page.html, /prefers-color-scheme:dark/);
    assert.match(page.html, /:focus-visible\{outline/);
    assert.match(page.html, /<main>\n<h1>Fish &amp; &lt;chips&gt;<\/h1>\n<p>Hi<\/p>\n<\/main>/);
    assert.equal(renderPage({ title: 't', body: html`` }).status, 200);
  });
});
