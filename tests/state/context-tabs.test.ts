// The applied context is shared by the tabs of one browser session. A new tab (its own session storage,
// no context yet) asks the open tabs and takes the last context applied in any of them; a tab that applies one tells
// the others. Never through local storage.
import { afterEach, describe, expect, it, vi } from 'vitest';

const merchant = {
  business: { id: 'b1', title: 'Northwind' },
  merchant: { id: 'm1', title: 'Northwind Online' },
};

describe('context shared by tabs', () => {
  const channels: BroadcastChannel[] = [];
  afterEach(async () => {
    for (const channel of channels.splice(0)) channel.close();
    // The store of this test stays open on the channel with its context: the next tab (test) or file of this worker
    // must not be answered with it.
    await import('../../src/state/context-store.ts').then(({ clearContext }) => clearContext());
    sessionStorage.clear();
    localStorage.clear();
  });

  it('a new tab opens in the context of the open tab; nothing goes to local storage', async () => {
    const openTab = new BroadcastChannel('portal-context');
    channels.push(openTab);
    openTab.onmessage = ({ data }) => {
      if (!data.applied) openTab.postMessage({ applied: merchant });
    };
    sessionStorage.clear();
    vi.resetModules();
    const { contextStore } = await import('../../src/state/context-store.ts');
    await vi.waitFor(() => expect(contextStore.applied).toEqual(merchant));
    await vi.waitFor(() => expect(JSON.parse(sessionStorage.getItem('portal.context') ?? 'null')).toEqual(merchant));
    expect(localStorage.length).toBe(0);
  });

  it('a context applied in a tab is what the others answer with', async () => {
    sessionStorage.clear();
    vi.resetModules();
    const { applyContext } = await import('../../src/state/context-store.ts');
    const otherTab = new BroadcastChannel('portal-context');
    channels.push(otherTab);
    const heard: unknown[] = [];
    otherTab.onmessage = ({ data }) => heard.push(data);
    // A copy: the store takes the object it is given into its state (valtio proxies its nested objects in place), and
    // `merchant` must stay a plain object that the next test can post.
    applyContext(structuredClone(merchant));
    await vi.waitFor(() => expect(heard).toContainEqual({ applied: merchant }));
    heard.length = 0;
    otherTab.postMessage({});
    await vi.waitFor(() => expect(heard).toContainEqual({ applied: merchant }));
  });

  it('a tab with a context of its own keeps it', async () => {
    sessionStorage.setItem('portal.context', JSON.stringify({ business: { id: 'b2', title: 'Contoso' } }));
    vi.resetModules();
    const { contextStore } = await import('../../src/state/context-store.ts');
    const otherTab = new BroadcastChannel('portal-context');
    channels.push(otherTab);
    otherTab.postMessage({ applied: structuredClone({ business: { id: 'b1', title: 'Northwind' } }) });
    await new Promise((settle) => setTimeout(settle, 50));
    expect(contextStore.applied).toEqual({ business: { id: 'b2', title: 'Contoso' } });
  });
});
