// The usage console's page script (runs in the operator's browser; served by usage-console.controller.ts). It reads
// /admin/console/api with the credential the browser already sent for the page, and draws with Chart.js (the global
// `Chart` of its UMD build, loaded just before). Every text from the data is set as textContent, never as HTML.
'use strict';

(() => {
  const API = '/admin/console/api';
  const RANGES = { '1h': 3600e3, '24h': 24 * 3600e3, '7d': 7 * 24 * 3600e3, '30d': 30 * 24 * 3600e3 };
  const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#6b7280'];
  // One color per series name for the page's life, whichever chart shows it first: "search" is the same color in the
  // usage charts and in the latency chart, and stays so when a filter changes which series are drawn.
  const seriesColors = new Map();
  const seriesColor = (name) => {
    if (!seriesColors.has(name)) seriesColors.set(name, PALETTE[seriesColors.size % PALETTE.length]);
    return seriesColors.get(name);
  };
  const QUEUE_REFRESH_MS = 10_000;
  const PAGE_SIZE = 50;

  const form = document.getElementById('filters');
  const state = document.getElementById('console-state');
  const charts = {};
  /** Cursors of the request-log pages before the one shown (Newer goes back through them). */
  let cursors = [];
  let currentCursor = null;
  let nextCursor = null;

  const numberFormat = new Intl.NumberFormat();

  async function getJson(path, params) {
    const query = new URLSearchParams(Object.entries(params || {}).filter(([, value]) => value !== undefined && value !== ''));
    const search = query.toString();
    const response = await fetch(`${API}/${path}${search ? `?${search}` : ''}`, { credentials: 'same-origin', cache: 'no-store' });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error((body.detail && body.detail.error) || `${path}: HTTP ${response.status}`);
    return body;
  }

  /** The filters as the API takes them; a preset range becomes from/to ending now. */
  function filters() {
    const field = (name) => form.elements.namedItem(name).value;
    const range = field('range');
    let from;
    let to;
    if (range === 'custom') {
      from = field('from') ? new Date(field('from')).toISOString() : undefined;
      to = field('to') ? new Date(field('to')).toISOString() : undefined;
    } else {
      const now = Date.now();
      to = new Date(now).toISOString();
      from = new Date(now - RANGES[range]).toISOString();
    }
    return { account: field('account'), key: field('key'), endpoint: field('endpoint'), status: field('status'), from, to };
  }

  /** Filters live in the address too, so a view can be reloaded or passed on. */
  function saveFiltersInAddress() {
    const params = new URLSearchParams();
    for (const name of ['account', 'key', 'endpoint', 'status', 'range', 'from', 'to', 'bucket', 'group_by']) {
      const value = form.elements.namedItem(name).value;
      if (value) params.set(name, value);
    }
    history.replaceState(null, '', `${location.pathname}?${params}`);
  }

  function restoreFiltersFromAddress() {
    const params = new URLSearchParams(location.search);
    for (const name of ['endpoint', 'status', 'range', 'from', 'to', 'bucket', 'group_by']) {
      if (params.has(name)) form.elements.namedItem(name).value = params.get(name);
    }
    return { account: params.get('account') || '', key: params.get('key') || '' };
  }

  function showCustomRange() {
    const custom = form.elements.namedItem('range').value === 'custom';
    for (const label of document.querySelectorAll('.custom-range')) label.classList.toggle('hidden', !custom);
  }

  /**
   * Hours in local time as "14:00", with the date at the first bucket and at each local midnight; days as "Nov 29",
   * named in UTC because the buckets are UTC days (in local time a day would start on the evening before in the west).
   */
  function bucketLabels(view) {
    const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
    const utcDay = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
    const hour = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
    return view.buckets.map((bucket, position) => {
      const start = new Date(bucket);
      if (view.bucket === 'day') return utcDay.format(start);
      return position === 0 || start.getHours() === 0 ? `${day.format(start)} ${hour.format(start)}` : hour.format(start);
    });
  }

  /** Creates the chart on first use, then only swaps its data (Chart.js keeps the canvas and its size). */
  function draw(id, config) {
    const existing = charts[id];
    if (existing && existing.config.type === config.type) {
      existing.data = config.data;
      existing.options = config.options;
      existing.update();
      return existing;
    }
    if (existing) existing.destroy();
    charts[id] = new Chart(document.getElementById(id), config);
    return charts[id];
  }

  const baseOptions = (extra) => ({
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: 'index', intersect: false },
    plugins: { legend: { position: 'bottom', labels: { boxWidth: 12 } } },
    ...extra,
  });

  function drawUsage(usage) {
    const labels = bucketLabels(usage);
    const datasets = (measure) =>
      usage.series.map((series) => ({
        label: series.label,
        data: series[measure],
        backgroundColor: seriesColor(series.label),
        borderColor: seriesColor(series.label),
        stack: 'usage',
      }));
    const stacked = baseOptions({ scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } });
    draw('chart-requests', { type: 'bar', data: { labels, datasets: datasets('requests') }, options: stacked });
    draw('chart-credits', { type: 'bar', data: { labels, datasets: datasets('credits') }, options: stacked });
    document.getElementById('total-requests').textContent = numberFormat.format(usage.totals.requests);
    document.getElementById('total-credits').textContent = numberFormat.format(usage.totals.credits);
    document.getElementById('total-errors').textContent = numberFormat.format(usage.totals.errors);
  }

  function drawLatency(latency) {
    const labels = bucketLabels(latency);
    const datasets = latency.endpoints.flatMap((endpoint) => {
      const color = seriesColor(endpoint.endpoint);
      return [
        { label: `${endpoint.endpoint} p50`, data: endpoint.p50_ms, borderColor: color, backgroundColor: color, spanGaps: false, pointRadius: 3 },
        { label: `${endpoint.endpoint} p95`, data: endpoint.p95_ms, borderColor: color, backgroundColor: color, borderDash: [6, 4], spanGaps: false, pointRadius: 3, pointStyle: 'rectRot' },
      ];
    });
    draw('chart-latency', { type: 'line', data: { labels, datasets }, options: baseOptions({ scales: { y: { beginAtZero: true, title: { display: true, text: 'ms' } } } }) });
    const statuses = latency.status_counts;
    const statusColor = (status) => (status >= 500 ? '#b42318' : status >= 400 ? '#d97706' : status >= 300 ? '#6b7280' : '#16a34a');
    draw('chart-status', {
      type: 'bar',
      data: {
        labels: statuses.map((entry) => String(entry.status)),
        datasets: [{ label: 'requests', data: statuses.map((entry) => entry.requests), backgroundColor: statuses.map((entry) => statusColor(entry.status)), maxBarThickness: 80 }],
      },
      options: baseOptions({ plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } }),
    });
  }

  function meterCell(used, limit) {
    const cell = document.createElement('td');
    if (limit === null || limit === undefined) {
      cell.textContent = 'unlimited';
      return cell;
    }
    const meter = document.createElement('meter');
    meter.min = 0;
    meter.max = Math.max(limit, 1);
    meter.low = meter.max * 0.8;
    meter.high = meter.max * 0.95;
    meter.optimum = 0;
    meter.value = used;
    cell.append(meter, ` ${limit > 0 ? Math.round((used / limit) * 100) : 0}%`);
    return cell;
  }

  function cell(text, className) {
    const element = document.createElement('td');
    element.textContent = text;
    if (className) element.className = className;
    return element;
  }

  function fillTable(tableId, rows, columns) {
    const body = document.querySelector(`#${tableId} tbody`);
    body.replaceChildren();
    if (rows.length === 0) {
      const row = document.createElement('tr');
      const empty = cell('Nothing in this view.', 'empty');
      empty.colSpan = document.querySelectorAll(`#${tableId} thead th`).length;
      row.append(empty);
      body.append(row);
      return;
    }
    for (const entry of rows) {
      const row = document.createElement('tr');
      row.append(...columns(entry));
      body.append(row);
    }
  }

  function drawPlans(accountsView, selectedAccount) {
    const shown = accountsView.accounts.filter((account) => !selectedAccount || account.id === selectedAccount).slice(0, 12);
    const limited = shown.filter((account) => account.plan_limit !== null);
    draw('chart-plans', {
      type: 'bar',
      data: {
        labels: limited.map((account) => account.name),
        datasets: [
          {
            label: '% of the monthly plan credits',
            data: limited.map((account) => (account.plan_limit > 0 ? (account.plan_credits / account.plan_limit) * 100 : 0)),
            backgroundColor: limited.map((account) => (account.plan_limit > 0 && account.plan_credits / account.plan_limit >= 0.9 ? '#b42318' : '#2563eb')),
          },
        ],
      },
      options: baseOptions({
        indexAxis: 'y',
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { afterLabel: (item) => `${numberFormat.format(limited[item.dataIndex].plan_credits)} of ${numberFormat.format(limited[item.dataIndex].plan_limit)} credits` } },
        },
        scales: { x: { beginAtZero: true, suggestedMax: 100, title: { display: true, text: '%' } } },
      }),
    });
    fillTable('accounts-table', shown, (account) => [
      cell(account.name),
      cell(account.plan.name),
      cell(numberFormat.format(account.plan_credits), 'number'),
      meterCell(account.plan_credits, account.plan_limit),
      cell(numberFormat.format(account.paygo_credits), 'number'),
      cell(account.paygo_limit === null ? 'not set' : numberFormat.format(account.paygo_limit), 'number'),
    ]);
  }

  function drawKeys(keysView) {
    const section = document.getElementById('keys-section');
    section.classList.toggle('hidden', !keysView);
    if (!keysView) return;
    fillTable('keys-table', keysView.keys, (key) => [
      cell(`${key.name} ****${key.last_four}`),
      cell(key.status),
      cell(numberFormat.format(key.credits), 'number'),
      meterCell(key.credits, key.credit_limit),
      cell(key.credit_limit === null ? 'none' : numberFormat.format(key.credit_limit), 'number'),
    ]);
  }

  async function refreshQueues() {
    const view = await getJson('queues');
    document.getElementById('queues-sampled').textContent = `(${new Date(view.sampled_at).toLocaleTimeString()})`;
    const states = [
      ['waiting', '#d97706'],
      ['active', '#2563eb'],
      ['delayed', '#6b7280'],
    ];
    draw('chart-queues', {
      type: 'bar',
      data: {
        labels: view.queues.map((queue) => queue.queue),
        datasets: states.map(([name, color]) => ({ label: name, data: view.queues.map((queue) => queue[name]), backgroundColor: color, stack: 'jobs', maxBarThickness: 80 })),
      },
      options: baseOptions({ scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } }),
    });
  }

  async function loadRequestLog() {
    const page = await getJson('requests', { ...filters(), limit: PAGE_SIZE, cursor: currentCursor || undefined });
    const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });
    fillTable('request-log', page.requests, (entry) => [
      cell(timeFormat.format(new Date(entry.timestamp))),
      cell(entry.account.name),
      cell(entry.key ? `${entry.key.name || ''} ****${entry.key.last_four || ''}` : '—'),
      cell(entry.endpoint),
      cell(entry.depth || ''),
      cell(String(entry.status), entry.status >= 400 ? 'number status-error' : 'number'),
      cell(numberFormat.format(Math.round(entry.response_time * 1000)), 'number'),
      cell(String(entry.credits), 'number'),
      cell(entry.request_id),
    ]);
    nextCursor = page.next_cursor;
    document.getElementById('page-older').disabled = !nextCursor;
    document.getElementById('page-newer').disabled = cursors.length === 0;
    document.getElementById('page-info').textContent = `page ${cursors.length + 1}, ${page.requests.length} rows`;
  }

  async function loadKeyOptions(accountId, selectedKey) {
    const select = form.elements.namedItem('key');
    select.replaceChildren(new Option('All keys', ''));
    select.disabled = !accountId;
    if (!accountId) return;
    const view = await getJson(`accounts/${encodeURIComponent(accountId)}/keys`);
    for (const key of view.keys) select.append(new Option(`${key.name} ****${key.last_four}`, key.id));
    select.value = selectedKey || '';
  }

  async function loadAccountOptions(selectedAccount) {
    const view = await getJson('accounts');
    const select = form.elements.namedItem('account');
    select.replaceChildren(new Option('All accounts', ''));
    for (const account of view.accounts) select.append(new Option(account.name, account.id));
    select.value = selectedAccount || '';
  }

  /** Reads every view for the current filters and redraws; the body's data-state says when it is done. */
  async function refresh() {
    document.body.dataset.state = 'loading';
    state.textContent = 'Loading…';
    try {
      const current = filters();
      const range = { ...current, bucket: form.elements.namedItem('bucket').value };
      const [usage, latency, accounts, keys] = await Promise.all([
        getJson('usage', { ...range, group_by: form.elements.namedItem('group_by').value }),
        getJson('latency', range),
        getJson('accounts'),
        current.account ? getJson(`accounts/${encodeURIComponent(current.account)}/keys`) : null,
        loadRequestLog(),
        refreshQueues(),
      ]);
      drawUsage(usage);
      drawLatency(latency);
      drawPlans(accounts, current.account);
      drawKeys(keys);
      state.textContent = `${new Date(usage.from).toLocaleString()} – ${new Date(usage.to).toLocaleString()}, per ${usage.bucket}`;
      document.body.dataset.state = 'ready';
    } catch (error) {
      state.textContent = `Could not load: ${error.message}`;
      document.body.dataset.state = 'error';
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    cursors = [];
    currentCursor = null;
    saveFiltersInAddress();
    void refresh();
  });
  form.elements.namedItem('range').addEventListener('change', showCustomRange);
  form.elements.namedItem('account').addEventListener('change', (event) => {
    void loadKeyOptions(event.target.value, '').catch((error) => {
      state.textContent = `Could not load the keys: ${error.message}`;
    });
  });
  document.getElementById('page-older').addEventListener('click', () => {
    if (!nextCursor) return;
    cursors.push(currentCursor);
    currentCursor = nextCursor;
    void loadRequestLog();
  });
  document.getElementById('page-newer').addEventListener('click', () => {
    currentCursor = cursors.pop() || null;
    void loadRequestLog();
  });
  setInterval(() => void refreshQueues().catch(() => undefined), QUEUE_REFRESH_MS);

  (async () => {
    const restored = restoreFiltersFromAddress();
    showCustomRange();
    try {
      await loadAccountOptions(restored.account);
      await loadKeyOptions(form.elements.namedItem('account').value, restored.key);
    } catch (error) {
      state.textContent = `Could not load: ${error.message}`;
      document.body.dataset.state = 'error';
      return;
    }
    await refresh();
  })();
})();
