// The column chooser: show or hide each column and change the order (buttons, or Alt+↑/↓ on a column).
// Changes apply at once; the screen remembers them per user. At least one column always stays visible.
import { type KeyboardEvent, useRef } from 'react';
import { Modal } from '../modal.tsx';

export type ChooserColumn = { id: string; label: string };

export type ColumnChooserProps = {
  open: boolean;
  onClose: () => void;
  columns: readonly ChooserColumn[];
  order: readonly string[];
  visible: readonly string[];
  onChange: (order: string[], visible: string[]) => void;
  onReset: () => void;
};

export function moveColumn(order: readonly string[], id: string, step: -1 | 1): string[] {
  const index = order.indexOf(id);
  const target = index + step;
  if (index < 0 || target < 0 || target >= order.length) return [...order];
  const next = [...order];
  next.splice(index, 1);
  next.splice(target, 0, id);
  return next;
}

export function ColumnChooser({ open, onClose, columns, order, visible, onChange, onReset }: ColumnChooserProps) {
  const list = useRef<HTMLUListElement>(null);
  const labelOf = (id: string) => columns.find((column) => column.id === id)?.label ?? id;

  const move = (id: string, step: -1 | 1) => {
    const next = moveColumn(order, id, step);
    onChange(
      next,
      next.filter((column) => visible.includes(column)),
    );
    // Keep the keyboard on the column that moved.
    requestAnimationFrame(() => list.current?.querySelector<HTMLInputElement>(`input[data-column="${id}"]`)?.focus());
  };
  const toggle = (id: string, checked: boolean) => {
    const next = checked ? order.filter((column) => visible.includes(column) || column === id) : visible.filter((column) => column !== id);
    if (next.length > 0) onChange([...order], next);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, id: string) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    move(id, event.key === 'ArrowUp' ? -1 : 1);
  };

  return (
    <Modal
      open={open}
      title="Columns"
      description="Choose the columns to show and their order. Alt+↑ and Alt+↓ move the focused column."
      onClose={onClose}
      size="sm"
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onReset}>
            Reset to default
          </button>
          <button type="button" className="button button-primary" onClick={onClose}>
            Done
          </button>
        </>
      }
    >
      <ul ref={list} className="column-chooser" aria-label="Columns in order">
        {order.map((id, index) => {
          const shown = visible.includes(id);
          return (
            <li key={id} className="column-chooser-item">
              <label className="dt-checkbox">
                <input
                  type="checkbox"
                  data-column={id}
                  checked={shown}
                  disabled={shown && visible.length === 1}
                  onChange={(event) => toggle(id, event.target.checked)}
                  onKeyDown={(event) => onKeyDown(event, id)}
                />
                <span>{labelOf(id)}</span>
              </label>
              <span className="column-chooser-moves">
                <button type="button" className="icon-button" aria-label={`Move ${labelOf(id)} up`} disabled={index === 0} onClick={() => move(id, -1)}>
                  ↑
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move ${labelOf(id)} down`}
                  disabled={index === order.length - 1}
                  onClick={() => move(id, 1)}
                >
                  ↓
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </Modal>
  );
}
