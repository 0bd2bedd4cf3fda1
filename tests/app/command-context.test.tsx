// The reactive command context: one picture per state (the same object while nothing it reads changes), and
// opening an overlay re-renders only the consumers that ask for the overlays.
import { act, render } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GuardContext } from '../../src/app/guard.ts';
import { useCommandContext } from '../../src/app/command-context.ts';
import { shellStore } from '../../src/state/shell-store.ts';
import { loadLayout } from '../../src/state/workspace-store.ts';
import { merchantContext, resetStores, signIn } from './support.tsx';

function Probe({ seen, options }: { seen: GuardContext[]; options: { overlays?: boolean } }) {
  seen.push(useCommandContext(undefined, options));
  return null;
}

/** A probe element (new on each call, as `<Probe />` is) and the pictures it saw, one per render. */
function probe(options: { overlays?: boolean }) {
  const seen: GuardContext[] = [];
  return { seen, probeElement: () => <Probe seen={seen} options={options} /> };
}

describe('useCommandContext', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Transactions.Read'], context: merchantContext });
  });

  it('leaves consumers without the overlays alone when an overlay opens, and keeps the same picture', async () => {
    const { seen, probeElement } = probe({ overlays: false });
    render(probeElement());
    const renders = seen.length;
    await act(async () => {
      shellStore.paletteOpen = true;
    });
    await act(async () => {
      shellStore.shortcutHelpOpen = true;
    });
    expect(seen).toHaveLength(renders);
    expect(seen.at(-1)?.overlayOpen).toBe(false);
  });

  it('re-renders consumers of the overlays, with overlayOpen', async () => {
    const { seen, probeElement } = probe({});
    render(probeElement());
    await act(async () => {
      shellStore.paletteOpen = true;
    });
    expect(seen.at(-1)?.overlayOpen).toBe(true);
  });

  it('gives a new picture when the workspace changes, the same one for a re-render without a change', async () => {
    const { seen, probeElement } = probe({ overlays: false });
    const view = render(probeElement());
    const first = seen.at(-1);
    view.rerender(probeElement());
    expect(seen.at(-1)).toBe(first);
    await act(async () => {
      loadLayout({ paths: ['/transactions'], focused: 0 });
    });
    expect(seen.at(-1)).not.toBe(first);
    expect(seen.at(-1)?.route?.path).toBe('/transactions');
  });
});
