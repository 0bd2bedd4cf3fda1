// Filter presets of one page: apply a saved set of filters, remove one, or save the current filters under a name.
// Saving needs a name and a valid filter form; the screen stores the presets and says what happened. ↑/↓ (Home, End)
// move between the saved presets, Enter applies one.
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { rovingTarget } from '../roving-focus.ts';
import { Popover } from './popover.tsx';

export type PresetEntry = {
  identifier: string;
  name: string;
  /** what the preset filters, in words ('Type: Refund · Currency: EUR · Date: Last month') */
  summary?: string;
  /** who it is shared with ('Shared with Little Wren Bakery Ltd'), or its being the page's default */
  badge?: string;
  /** false: shared with the caller read-only (no remove button) */
  removable?: boolean;
};

export type FilterPresetsProps = {
  presets: readonly PresetEntry[];
  /** why the current filters cannot be saved (an invalid form), if they cannot */
  saveBlockedBy?: string | undefined;
  /** checks a name; returns the problem */
  nameProblem: (name: string) => string | undefined;
  onApply: (identifier: string) => void;
  onRemove: (identifier: string) => void;
  onSave: (name: string, options: { shared: boolean }) => void;
  /** offers 'Share with …' when saving (the screen names whom: 'Share with everyone on Little Wren Bakery Ltd') */
  shareLabel?: string | undefined;
};

export function FilterPresets({ presets, saveBlockedBy, nameProblem, onApply, onRemove, onSave, shareLabel }: FilterPresetsProps) {
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [touched, setTouched] = useState(false);
  const nameId = useId();
  const problemId = useId();
  const problem = saveBlockedBy ?? (touched ? nameProblem(name) : undefined);

  const onListKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('.presets-apply')];
    const index = buttons.findIndex((button) => button === document.activeElement || button.parentElement?.contains(document.activeElement));
    const to = index < 0 ? null : rovingTarget(event.key, index, buttons.length);
    if (to === null) return;
    event.preventDefault();
    buttons[to]?.focus();
  };

  const submit = (event: FormEvent, close: () => void) => {
    event.preventDefault();
    setTouched(true);
    if (saveBlockedBy || nameProblem(name)) return;
    onSave(name.trim(), { shared: shareLabel !== undefined && shared });
    setName('');
    setShared(false);
    setTouched(false);
    close();
  };

  return (
    <Popover title="Filter presets" trigger="Presets" triggerClassName="button">
      {(close) => (
        <div className="presets">
          <h3 className="presets-title">Filter presets</h3>
          {presets.length === 0 ? (
            <p className="presets-empty">No presets saved for this page yet.</p>
          ) : (
            <ul className="presets-list" aria-label="Saved presets" onKeyDown={onListKeyDown}>
              {presets.map((preset) => (
                <li key={preset.identifier} className="presets-item">
                  <button
                    type="button"
                    className="button button-ghost presets-apply"
                    aria-describedby={preset.summary || preset.badge ? `${problemId}-${preset.identifier}` : undefined}
                    onClick={() => {
                      onApply(preset.identifier);
                      close();
                    }}
                  >
                    {preset.name}
                  </button>
                  {preset.summary || preset.badge ? (
                    <span id={`${problemId}-${preset.identifier}`} className="presets-summary">
                      {preset.badge ? <span className="presets-badge">{preset.badge}</span> : null}
                      {preset.badge && preset.summary ? ' ' : null}
                      {preset.summary}
                    </span>
                  ) : null}
                  {preset.removable === false ? null : (
                    <button type="button" className="icon-button" aria-label={`Remove preset ${preset.name}`} onClick={() => onRemove(preset.identifier)}>
                      ×
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          <form className="presets-save" onSubmit={(event) => submit(event, close)} noValidate>
            <label htmlFor={nameId}>Save current filters as</label>
            <input
              id={nameId}
              className="dt-input"
              value={name}
              maxLength={50}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? problemId : undefined}
              onChange={(event) => setName(event.target.value)}
              onBlur={() => setTouched(name !== '')}
            />
            {problem ? (
              <p id={problemId} className="dt-problem" role="alert">
                {problem}
              </p>
            ) : null}
            {shareLabel ? (
              <label className="dt-checkbox">
                <input type="checkbox" checked={shared} onChange={(event) => setShared(event.target.checked)} />
                <span>{shareLabel}</span>
              </label>
            ) : null}
            <button type="submit" className="button button-primary" disabled={saveBlockedBy !== undefined}>
              Save preset
            </button>
          </form>
        </div>
      )}
    </Popover>
  );
}
