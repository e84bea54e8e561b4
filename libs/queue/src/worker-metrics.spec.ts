import { Registry } from 'prom-client';
import { PagesAcquired, registerPendingStoresGauge } from './worker-metrics';

describe('PagesAcquired', () => {
  it('counts the pages acquired by the way each was got, on the registry it is put on', async () => {
    const registry = new Registry();
    const acquired = new PagesAcquired();
    acquired.register(registry);
    acquired.count('fetch');
    acquired.count('fetch');
    acquired.count('render');
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/^sift_pages_acquired_total\{via="fetch"\} 2$/m);
    expect(metrics).toMatch(/^sift_pages_acquired_total\{via="render"\} 1$/m);
    expect(metrics).not.toMatch(/via="store"/);
  });
});

describe('registerPendingStoresGauge', () => {
  it('reports the stores still running after their answer, read when the metrics are asked for', async () => {
    const registry = new Registry();
    let pending = 3;
    registerPendingStoresGauge(registry, () => pending);
    expect(await registry.metrics()).toMatch(/^sift_page_stores_pending 3$/m);
    pending = 0;
    expect(await registry.metrics()).toMatch(/^sift_page_stores_pending 0$/m);
  });
});
