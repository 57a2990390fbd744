import { escapeHtml, markup, SafeHtml } from './html';

describe('escapeHtml', () => {
  it('escapes the five characters that can end text or an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });
});

describe('markup', () => {
  it('escapes interpolated strings and keeps SafeHtml as it is', () => {
    const inner = markup`<b>${'<i>'}</b>`;

    expect(markup`<p title="${'"onclick="x'}">${inner}</p>`.text).toBe(
      '<p title="&quot;onclick=&quot;x"><b>&lt;i&gt;</b></p>',
    );
  });

  it('renders arrays item by item, numbers and bigints as text, and nothing for null, undefined or false', () => {
    expect(markup`${['<', markup`<br>`]}|${1}|${2n}|${null}|${undefined}|${false}`.text).toBe(
      '&lt;<br>|1|2|||',
    );
  });

  it('is only bypassed by SafeHtml instances, not by look-alike objects', () => {
    const fake = { text: '<script>' } as unknown as string;

    expect(markup`${fake}`.text).toBe('[object Object]');
    expect(new SafeHtml('<br>').toString()).toBe('<br>');
  });
});
