// Tabs with a validated configuration: as many contents as tabs and a valid, enabled active index, else an
// error is raised (spec). Arrow keys, Home and End move between enabled tabs.
import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export type TabDefinition = { id: string; label: string; disabled?: boolean };

export class TabsConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TabsConfigurationError';
  }
}

export function validateTabs(tabs: readonly TabDefinition[], contentCount: number, activeIndex: number): void {
  if (tabs.length === 0) throw new TabsConfigurationError('Tabs need at least one tab.');
  if (tabs.length !== contentCount) throw new TabsConfigurationError(`Tabs need as many contents as tabs (${tabs.length} tabs, ${contentCount} contents).`);
  if (!Number.isInteger(activeIndex) || activeIndex < 0 || activeIndex >= tabs.length)
    throw new TabsConfigurationError(`Tab index ${activeIndex} is out of range.`);
  if (tabs[activeIndex]?.disabled) throw new TabsConfigurationError(`Tab ${activeIndex} is disabled and cannot be active.`);
  if (new Set(tabs.map((tab) => tab.id)).size !== tabs.length) throw new TabsConfigurationError('Tab ids must be unique.');
}

export type TabsProps = {
  label: string;
  tabs: readonly TabDefinition[];
  contents: readonly ReactNode[];
  activeIndex: number;
  onActiveIndexChange: (index: number) => void;
};

export function Tabs({ label, tabs, contents, activeIndex, onActiveIndexChange }: TabsProps) {
  validateTabs(tabs, contents.length, activeIndex);
  const baseId = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  const move = (from: number, step: 1 | -1): number => {
    for (let offset = 1; offset <= tabs.length; offset += 1) {
      const index = (from + step * offset + tabs.length * offset) % tabs.length;
      if (!tabs[index]?.disabled) return index;
    }
    return from;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    let next: number | null = null;
    if (event.key === 'ArrowRight') next = move(activeIndex, 1);
    else if (event.key === 'ArrowLeft') next = move(activeIndex, -1);
    else if (event.key === 'Home') next = move(tabs.length - 1, 1);
    else if (event.key === 'End') next = move(0, -1);
    if (next === null) return;
    event.preventDefault();
    onActiveIndexChange(next);
    buttons.current[next]?.focus();
  };

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list" onKeyDown={onKeyDown}>
        {tabs.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab.id}`}
            aria-controls={`${baseId}-panel-${tab.id}`}
            aria-selected={index === activeIndex}
            tabIndex={index === activeIndex ? 0 : -1}
            disabled={tab.disabled}
            className="tab"
            onClick={() => onActiveIndexChange(index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, index) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-panel-${tab.id}`}
          aria-labelledby={`${baseId}-tab-${tab.id}`}
          hidden={index !== activeIndex}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the WAI-ARIA tabs pattern: a panel takes the focus after its tab
          tabIndex={0}
          className="tab-panel"
        >
          {index === activeIndex ? contents[index] : null}
        </div>
      ))}
    </div>
  );
}
