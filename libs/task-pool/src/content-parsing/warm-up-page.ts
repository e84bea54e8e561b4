/**
 * A documentation page of the usual shape and size, made here so the workers need no fixture file: a stylesheet and a
 * script in its head, navigation, sections in the nested, class-named wrappers that site generators write, prose with
 * inline markup and links, term lists, numbered and bulleted lists, a note box, a figure, a quotation, a table, code, a
 * footer (about 84 KB). The parsing threads parse it a few times when they start: a thread's first pages otherwise run
 * several times slower while V8 compiles the parser's hot code, and code the warm-up page never reaches (a term list's
 * walk, a wrapper's class weighed) is compiled on a real request instead.
 */
export function warmUpPageHtml(): string {
  const navigation = Array.from({ length: 40 }, (_, index) => `<li><a href="/docs/topic-${index}.html">Topic ${index}</a></li>`).join('');
  const stylesheet = Array.from({ length: 60 }, (_, index) => `.block-${index}>.content{margin:0 ${index}px;padding:.5em;line-height:1.${index % 10}}`).join('\n');
  const terms = (index: number) =>
    '<div class="dlist"><dl>' +
    Array.from(
      { length: 6 },
      (_, term) =>
        `<dt class="hdlist1"><code>--flag-${index}-${term}</code>=<em>&lt;value&gt;</em></dt>` +
        `<dd><div class="paragraph"><p>Sets flag ${term} of step ${index}; the value is read as <em>bytes</em> unless it ends in <code>k</code> or <code>m</code>.` +
        ` See <a href="/docs/flags.html#flag-${term}">flags</a>.</p></div></dd>`,
    ).join('') +
    '</dl></div>';
  const section = (index: number) =>
    `<div class="sect1"><h2 id="section-${index}">Section ${index}: configuring the service</h2><div class="sectionbody">` +
    `<div class="paragraph"><p>The <code>option-${index}</code> setting controls how the service reads its <em>input</em>; see <a href="/docs/topic-${index}.html">topic ${index}</a> ` +
    'for the details. When it is unset, the default applies, and the service logs a line at start so that an operator can tell ' +
    'which value is in effect. A value out of range is refused with an error that names the setting.</p></div>' +
    '<div class="paragraph"><p>Most deployments leave it alone. Those that tune it usually do so after measuring: the <strong>latency</strong> of each ' +
    'request, its <strong>throughput</strong>, and what the machine spends on each. The figures move with the load &mdash; ' +
    'a busy machine&rsquo;s figures are not an idle one&rsquo;s.</p></div>' +
    `<div class="ulist"><ul><li><p>First, read the <a href="#section-${index}">overview</a>.</p></li><li><p>Then set <code>option-${index}</code>.</p></li><li><p>Restart.</p></li></ul></div>` +
    `<div class="sect2"><h3 id="section-${index}-steps">Steps</h3>` +
    `<div class="olist arabic"><ol class="arabic"><li><p>Stop the service.</p></li><li><p>Edit <code>service.conf</code>.</p></li><li><p>Start it again.</p></li></ol></div>` +
    terms(index) +
    `<div class="listingblock"><div class="content"><pre><code>service --option-${index}=42 --verbose\nservice status</code></pre></div></div>` +
    (index % 4 === 0
      ? '<div class="admonitionblock note"><table><tr><td class="icon"><div class="title">Note</div></td><td class="content">A change takes effect at the next start.</td></tr></table></div>'
      : '') +
    (index % 6 === 0
      ? `<figure class="image"><img src="/images/diagram-${index}.png" alt="Diagram of step ${index}" width="640" height="360"><figcaption>The flow of step ${index}.</figcaption></figure>` +
        '<blockquote><p>Measure first, then tune.</p><footer>The operations handbook</footer></blockquote>'
      : '') +
    '</div></div></div>';
  const table =
    '<table class="tableblock frame-all grid-all"><thead><tr><th>Setting</th><th>Default</th><th>Meaning</th></tr></thead><tbody>' +
    Array.from({ length: 15 }, (_, index) => `<tr><td><code>option-${index}</code></td><td>${index * 10}</td><td>What option ${index} controls.</td></tr>`).join('') +
    '</tbody></table>';
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Configuring the service</title>' +
    '<meta name="description" content="How to configure the service."><link rel="canonical" href="https://warm-up.invalid/docs/configure.html">' +
    `<style>${stylesheet}</style><script>window.dataLayer = window.dataLayer || [];</script></head>` +
    `<body class="article"><div id="header"><nav class="site-nav"><ul>${navigation}</ul></nav></div>` +
    '<div id="content" class="container"><main><article><h1>Configuring the service</h1>' +
    '<div id="preamble"><div class="sectionbody"><div class="paragraph"><p>How each setting of the service is read, checked and applied.</p></div></div></div>' +
    Array.from({ length: 24 }, (_, index) => section(index)).join('') +
    table +
    '</article></main><aside class="sidebar"><h4>On this page</h4><ul><li><a href="#section-0">Section 0</a></li><li><a href="#section-1">Section 1</a></li></ul></aside></div>' +
    '<div id="footer"><footer><p>Copyright the authors. <a href="/privacy.html">Privacy</a> · <a href="/terms.html">Terms</a></p></footer></div></body></html>'
  );
}
