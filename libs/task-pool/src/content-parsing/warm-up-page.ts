/**
 * A documentation page of the usual shape and size (navigation, headings, prose with inline markup, character
 * references and links, lists, a table, code, a footer; about 24 KB), made here so the workers need no fixture file.
 * The parsing threads parse it a few times when they start: a thread's first pages otherwise run several times slower
 * while V8 compiles the parser's hot code, and a worker's first crawl waits on them. The character references (named
 * and numeric, in prose and in code) are there because nearly every real page has some: the first one a thread meets
 * splits a text node's text and appends to it, and V8 then throws away the compiled code that took that field for
 * constant, in the middle of a caller's page instead of here.
 */
export function warmUpPageHtml(): string {
  const navigation = Array.from({ length: 40 }, (_, index) => `<li><a href="/docs/topic-${index}.html">Topic ${index}</a></li>`).join('');
  const section = (index: number) =>
    `<h2 id="section-${index}">Section ${index}: configuring the service</h2>` +
    `<p>The <code>option-${index}</code> setting controls how the service reads its <em>input</em>; see <a href="/docs/topic-${index}.html">topic ${index}</a> ` +
    'for the details. When it&#8217;s unset, the default applies, and the service logs a line at start so that an operator can tell ' +
    'which value is in effect. A value out of range is refused with an error that names the setting &mdash; &quot;out of range&quot;.</p>' +
    '<p>Most deployments leave it alone. Those that tune it usually do so after measuring: the <strong>latency</strong> of each ' +
    'request, its <strong>throughput</strong>, and what the machine spends on each. The figures move with the load&nbsp;&amp; the time of day.</p>' +
    `<ul><li>First, read the <a href="#section-${index}">overview</a>.</li><li>Then set <code>option-${index}</code>.</li><li>Restart.</li></ul>` +
    `<pre><code>service --option-${index}=&lt;value&gt; --verbose &gt; log\nservice status</code></pre>`;
  const table =
    '<table><thead><tr><th>Setting</th><th>Default</th><th>Meaning</th></tr></thead><tbody>' +
    Array.from({ length: 15 }, (_, index) => `<tr><td><code>option-${index}</code></td><td>${index * 10}</td><td>What option ${index} controls.</td></tr>`).join('') +
    '</tbody></table>';
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Configuring the service</title>' +
    '<meta name="description" content="How to configure the service."><link rel="canonical" href="https://warm-up.invalid/docs/configure.html"></head>' +
    `<body><header><nav><ul>${navigation}</ul></nav></header><main><article><h1>Configuring the service</h1>` +
    Array.from({ length: 24 }, (_, index) => section(index)).join('') +
    table +
    '</article></main><footer><p>Copyright the authors. <a href="/privacy.html">Privacy</a> · <a href="/terms.html">Terms</a></p></footer></body></html>'
  );
}
