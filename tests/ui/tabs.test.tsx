// Tabs: a validated configuration (spec) and keyboard movement between enabled tabs.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Tabs, TabsConfigurationError, validateTabs } from '../../src/ui/tabs.tsx';

const tabs = [
  { id: 'all', label: 'All' },
  { id: 'recent', label: 'Recent', disabled: true },
  { id: 'favorites', label: 'Favorites' },
];

describe('validateTabs', () => {
  it.each([
    ['equal tabs and contents, enabled index', tabs, 3, 0, null],
    ['fewer contents than tabs', tabs, 2, 0, /as many contents as tabs/],
    ['index out of range', tabs, 3, 3, /out of range/],
    ['negative index', tabs, 3, -1, /out of range/],
    ['disabled tab active', tabs, 3, 1, /disabled/],
    ['no tabs', [], 0, 0, /at least one/],
    [
      'duplicate ids',
      [
        { id: 'a', label: 'A' },
        { id: 'a', label: 'B' },
      ],
      2,
      0,
      /unique/,
    ],
  ] as const)('%s', (_name, list, contents, index, error) => {
    const check = () => validateTabs(list, contents, index);
    if (error) expect(check).toThrow(TabsConfigurationError);
    if (error) expect(check).toThrow(error);
    else expect(check).not.toThrow();
  });
});

function Harness() {
  const [index, setIndex] = useState(0);
  return (
    <Tabs label="Context" tabs={tabs} contents={['All content', 'Recent content', 'Favorite content']} activeIndex={index} onActiveIndexChange={setIndex} />
  );
}

describe('Tabs', () => {
  it('moves between enabled tabs with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByRole('tabpanel').textContent).toBe('All content');
    await user.click(screen.getByRole('tab', { name: 'All' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Favorites' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Favorites' }).textContent).toBe('Favorite content');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Favorites' }));
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'All' }).getAttribute('aria-selected')).toBe('true');
  });

  it('raises an error for a wrong configuration', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Tabs label="x" tabs={tabs} contents={['one']} activeIndex={0} onActiveIndexChange={() => undefined} />)).toThrow(
      TabsConfigurationError,
    );
  });
});
