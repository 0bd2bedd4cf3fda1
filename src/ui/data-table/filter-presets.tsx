// Filter presets of one page: apply a saved set of filters, remove one, or save the current filters under a name.
// Saving needs a name and a valid filter form; the screen stores the presets and says what happened.
import { type FormEvent, useId, useState } from 'react';
import { Popover } from './popover.tsx';

export type PresetEntry = { identifier: string; name: string };

export type FilterPresetsProps = {
  presets: readonly PresetEntry[];
  /** why the current filters cannot be saved (an invalid form), if they cannot */
  saveBlockedBy?: string | undefined;
  /** checks a name; returns the problem */
  nameProblem: (name: string) => string | undefined;
  onApply: (identifier: string) => void;
  onRemove: (identifier: string) => void;
  onSave: (name: string) => void;
};

export function FilterPresets({ presets, saveBlockedBy, nameProblem, onApply, onRemove, onSave }: FilterPresetsProps) {
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const nameId = useId();
  const problemId = useId();
  const problem = saveBlockedBy ?? (touched ? nameProblem(name) : undefined);

  const submit = (event: FormEvent, close: () => void) => {
    event.preventDefault();
    setTouched(true);
    if (saveBlockedBy || nameProblem(name)) return;
    onSave(name.trim());
    setName('');
    setTouched(false);
    close();
  };

  return (
    <Popover title="Filter presets" trigger="Presets" triggerClassName="button">
      {(close) => (
        <div className="presets">
          <h3 className="presets-title">Filter presets</h3>
          {presets.length === 0 ? <p className="presets-empty">No presets saved for this page yet.</p> : (
            <ul className="presets-list" aria-label="Saved presets">
              {presets.map((preset) => (
                <li key={preset.identifier} className="presets-item">
                  <button type="button" className="button button-ghost presets-apply" onClick={() => { onApply(preset.identifier); close(); }}>
                    {preset.name}
                  </button>
                  <button type="button" className="icon-button" aria-label={`Remove preset ${preset.name}`} onClick={() => onRemove(preset.identifier)}>×</button>
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
            {problem ? <p id={problemId} className="dt-problem" role="alert">{problem}</p> : null}
            <button type="submit" className="button button-primary" disabled={saveBlockedBy !== undefined}>Save preset</button>
          </form>
        </div>
      )}
    </Popover>
  );
}
