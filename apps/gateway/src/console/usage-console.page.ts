import { LOG_ENDPOINTS } from '@sift/api-contracts';

export const CONSOLE_PATH = '/admin/console';
export const CONSOLE_SCRIPT_PATH = `${CONSOLE_PATH}/assets/usage-console.js`;
export const CHART_LIBRARY_PATH = `${CONSOLE_PATH}/assets/chart.umd.min.js`;

/**
 * Only the console's own files run, and nothing is fetched from elsewhere (the gateway is often offline). Styles are
 * inline in the page; Chart.js sizes its canvases through the style object, which this policy allows.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const endpointOptions = LOG_ENDPOINTS.map((endpoint) => `<option value="${endpoint}">${endpoint}</option>`).join('');

/**
 * The console's one page. It is HTML in a TypeScript module because the build (scripts/build.js) copies only .ts and
 * .js sources into the image; everything it shows comes from /admin/console/api through usage-console.js.
 */
export const USAGE_CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sift usage console</title>
<link rel="icon" href="data:,">
<style>
  :root { font-family: system-ui, sans-serif; color: #1d2530; background: #f4f6f8; }
  body { margin: 0; }
  header { display: flex; align-items: baseline; gap: 1rem; padding: 0.8rem 1.2rem; background: #1d2530; color: #fff; }
  header h1 { font-size: 1.15rem; margin: 0; }
  #console-state { font-size: 0.85rem; opacity: 0.8; }
  main { padding: 1rem 1.2rem 2rem; }
  form#filters { display: flex; flex-wrap: wrap; gap: 0.6rem 1rem; align-items: end; background: #fff; padding: 0.8rem;
    border-radius: 6px; box-shadow: 0 1px 2px rgba(0,0,0,.08); }
  form#filters label { display: flex; flex-direction: column; font-size: 0.78rem; color: #4a5563; gap: 0.2rem; }
  form#filters select, form#filters input { font: inherit; font-size: 0.9rem; padding: 0.25rem; }
  form#filters button { font: inherit; padding: 0.35rem 1rem; }
  .totals { display: flex; gap: 1rem; margin: 1rem 0; flex-wrap: wrap; }
  .total { background: #fff; border-radius: 6px; padding: 0.6rem 1rem; min-width: 8rem; box-shadow: 0 1px 2px rgba(0,0,0,.08); }
  .total b { display: block; font-size: 1.5rem; }
  .total span { font-size: 0.8rem; color: #4a5563; }
  .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 1rem; }
  figure { margin: 0; background: #fff; border-radius: 6px; padding: 0.8rem; box-shadow: 0 1px 2px rgba(0,0,0,.08); }
  figcaption { font-weight: 600; font-size: 0.9rem; margin-bottom: 0.4rem; }
  .chart { position: relative; height: 260px; }
  section { margin-top: 1.4rem; }
  h2 { font-size: 1rem; margin: 0 0 0.5rem; }
  table { border-collapse: collapse; width: 100%; background: #fff; font-size: 0.85rem; box-shadow: 0 1px 2px rgba(0,0,0,.08); }
  th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid #e3e7ec; white-space: nowrap; }
  th { background: #eef1f4; font-weight: 600; }
  td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
  td.status-error { color: #b42318; font-weight: 600; }
  meter { width: 8rem; }
  .pager { display: flex; gap: 0.6rem; align-items: center; margin-top: 0.5rem; font-size: 0.85rem; }
  .empty { color: #6b7480; font-style: italic; }
  .hidden { display: none !important; }
</style>
<script src="${CHART_LIBRARY_PATH}" defer></script>
<script src="${CONSOLE_SCRIPT_PATH}" defer></script>
</head>
<body data-state="loading">
<header><h1>Sift usage console</h1><span id="console-state" role="status">Loading…</span></header>
<main>
<form id="filters">
  <label>Account <select name="account" id="filter-account"><option value="">All accounts</option></select></label>
  <label>Key <select name="key" id="filter-key" disabled><option value="">All keys</option></select></label>
  <label>Endpoint <select name="endpoint" id="filter-endpoint"><option value="">All endpoints</option>${endpointOptions}</select></label>
  <label>Status <select name="status" id="filter-status">
    <option value="">Any status</option><option value="2xx">2xx</option><option value="4xx">4xx</option><option value="5xx">5xx</option>
    <option value="errors">Errors (400 and up)</option><option value="429">429 rate limited</option><option value="432">432 plan limit</option>
  </select></label>
  <label>Range <select name="range" id="filter-range">
    <option value="1h">Last hour</option><option value="24h" selected>Last 24 hours</option><option value="7d">Last 7 days</option>
    <option value="30d">Last 30 days</option><option value="custom">From – to</option>
  </select></label>
  <label class="custom-range">From <input type="datetime-local" name="from" id="filter-from"></label>
  <label class="custom-range">To <input type="datetime-local" name="to" id="filter-to"></label>
  <label>Buckets <select name="bucket" id="filter-bucket"><option value="">Auto</option><option value="hour">Hours</option><option value="day">Days</option></select></label>
  <label>Usage by <select name="group_by" id="filter-group"><option value="endpoint">Endpoint</option><option value="key">Key</option><option value="account">Account</option></select></label>
  <button type="submit">Apply</button>
</form>

<div class="totals">
  <div class="total"><b id="total-requests">–</b><span>requests</span></div>
  <div class="total"><b id="total-credits">–</b><span>credits</span></div>
  <div class="total"><b id="total-errors">–</b><span>errors (status 400 and up)</span></div>
</div>

<div class="charts">
  <figure><figcaption>Requests over time</figcaption><div class="chart"><canvas id="chart-requests"></canvas></div></figure>
  <figure><figcaption>Credits over time</figcaption><div class="chart"><canvas id="chart-credits"></canvas></div></figure>
  <figure><figcaption>Latency per endpoint (p50 solid, p95 dashed, ms)</figcaption><div class="chart"><canvas id="chart-latency"></canvas></div></figure>
  <figure><figcaption>Answers by status</figcaption><div class="chart"><canvas id="chart-status"></canvas></div></figure>
  <figure><figcaption>Credits this month against the plan (% of the monthly allowance)</figcaption><div class="chart"><canvas id="chart-plans"></canvas></div></figure>
  <figure><figcaption>Queue depth now <span id="queues-sampled"></span></figcaption><div class="chart"><canvas id="chart-queues"></canvas></div></figure>
</div>

<section id="plans-section">
  <h2>Accounts this month</h2>
  <table id="accounts-table"><thead><tr><th>Account</th><th>Plan</th><th class="number">Plan credits</th><th>Of the allowance</th><th class="number">Pay-as-you-go credits</th><th class="number">Pay-as-you-go ceiling</th></tr></thead><tbody></tbody></table>
</section>

<section id="keys-section" class="hidden">
  <h2>Keys of the account this month</h2>
  <table id="keys-table"><thead><tr><th>Key</th><th>Status</th><th class="number">Credits</th><th>Of the key's limit</th><th class="number">Limit</th></tr></thead><tbody></tbody></table>
</section>

<section>
  <h2>Request log</h2>
  <table id="request-log"><thead><tr><th>Time</th><th>Account</th><th>Key</th><th>Endpoint</th><th>Depth</th><th class="number">Status</th>
    <th class="number">Latency (ms)</th><th class="number">Credits</th><th>Request id</th></tr></thead><tbody></tbody></table>
  <div class="pager"><button type="button" id="page-newer" disabled>Newer</button><button type="button" id="page-older" disabled>Older</button><span id="page-info"></span></div>
</section>
</main>
</body>
</html>
`;
