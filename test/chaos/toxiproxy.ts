// Toxiproxy's HTTP API, the few calls the chaos harness makes: a proxy per replica and server, and the
// toxics that make the faults (https://github.com/Shopify/toxiproxy#http-api).

export interface Toxic {
  name: string;
  type: 'latency' | 'reset_peer' | 'timeout' | 'bandwidth' | 'slow_close' | 'limit_data' | 'slicer';
  stream?: 'upstream' | 'downstream';
  toxicity?: number;
  attributes: Record<string, number>;
}

export interface Toxiproxy {
  createProxy(name: string, listen: string, upstream: string): Promise<void>;
  addToxic(proxy: string, toxic: Toxic): Promise<void>;
  removeToxic(proxy: string, name: string): Promise<void>;
  /** Disabled: every connection through it is closed and new ones are refused. */
  setEnabled(proxy: string, enabled: boolean): Promise<void>;
}

export function toxiproxyClient(api: string): Toxiproxy {
  const call = async (method: string, path: string, body?: unknown): Promise<void> => {
    const response = await fetch(api + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok && !(method === 'DELETE' && response.status === 404)) {
      throw new Error(`toxiproxy ${method} ${path}: ${response.status} ${await response.text()}`);
    }
  };
  return {
    createProxy: (name, listen, upstream) => call('POST', '/proxies', { name, listen, upstream, enabled: true }),
    addToxic: (proxy, toxic) => call('POST', `/proxies/${proxy}/toxics`, { stream: 'downstream', toxicity: 1, ...toxic }),
    removeToxic: (proxy, name) => call('DELETE', `/proxies/${proxy}/toxics/${name}`),
    setEnabled: (proxy, enabled) => call('POST', `/proxies/${proxy}`, { enabled }),
  };
}
