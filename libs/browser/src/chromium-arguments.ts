/**
 * Command-line switches that make the egress proxy Chromium's only way out.
 * - `--proxy-bypass-list=<-loopback>`: Chromium otherwise connects to loopback and link-local hosts directly.
 * - `--host-resolver-rules`: Chromium resolves no name itself (all map to NOTFOUND), so DNS prefetching and
 *   anything else that skips the proxy cannot reach a host; 127.0.0.1 stays reachable for the proxy itself.
 * - WebRTC may only use proxied UDP, i.e. none: STUN/TURN to an internal IP would bypass the proxy.
 * - QUIC is off because HTTP/3 goes over UDP, past an HTTP proxy.
 * - `--js-flags=--max-old-space-size`: each renderer's V8 heap is capped, so a page that allocates without bound
 *   crashes its own renderer instead of growing the browser by gigabytes.
 */
export function chromiumArguments(proxyUrl: string, instanceMarker: string, maxPageHeapMb: number): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-domain-reliability',
    '--disable-features=DnsOverHttps,MediaRouter,OptimizationHints',
    '--no-first-run',
    '--no-pings',
    '--disable-quic',
    '--mute-audio',
    `--js-flags=--max-old-space-size=${maxPageHeapMb}`,
    `--proxy-server=${proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    // Unknown to Chromium and ignored by it; lets the pool find this browser's processes to measure memory.
    `--sift-browser-instance=${instanceMarker}`,
  ];
}
