// The export dialog: file type (xlsx or csv), which columns (the visible ones or all), and how many rows the export
// will hold, so nothing is ever cut off silently. The report is queued on the server.
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Modal } from '../modal.tsx';
import { formatCount } from './pagination-model.ts';

export type ExportChoice = { fileType: 'xlsx' | 'csv'; columns: 'visible' | 'all' };

export type ExportDialogProps = {
  open: boolean;
  onClose: () => void;
  /** null while counting */
  rowCount: number | null;
  rowCountFailed?: boolean;
  /** the count is the planner's estimate (a list too large to count exactly): said as 'About N' */
  rowCountIsEstimate?: boolean;
  visibleColumns: readonly string[];
  allColumns: readonly string[];
  /** what the rows are: 'transactions' */
  noun: string;
  busy: boolean;
  onExport: (choice: ExportChoice) => void;
  /** the export holds the rows the user picked, not every match of the filters */
  selectedOnly?: boolean;
};

export function ExportDialog({
  open,
  onClose,
  rowCount,
  rowCountFailed,
  rowCountIsEstimate = false,
  visibleColumns,
  allColumns,
  noun,
  busy,
  onExport,
  selectedOnly = false,
}: ExportDialogProps) {
  const [choice, setChoice] = useState<ExportChoice>({ fileType: 'xlsx', columns: 'visible' });
  const formId = useId();
  useEffect(() => {
    if (open) setChoice({ fileType: 'xlsx', columns: 'visible' });
  }, [open]);
  const columns = choice.columns === 'visible' ? visibleColumns : allColumns;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy && rowCount !== 0) onExport(choice);
  };
  const countText = rowCountFailed
    ? `Every matching ${noun.replace(/s$/, '')} will be exported.`
    : rowCount === null
      ? `Counting the ${noun}…`
      : `${rowCountIsEstimate ? 'About ' : ''}${formatCount(rowCount)} ${rowCount === 1 ? noun.replace(/s$/, '') : noun} will be exported, ${selectedOnly ? (rowCount === 1 ? 'the one you selected' : 'the ones you selected') : 'every one that matches the filters'}.`;
  return (
    <Modal
      open={open}
      title={`Export ${noun}`}
      onClose={onClose}
      size="md"
      closeActionLabel="Cancel"
      footer={
        <button type="submit" form={formId} className="button button-primary" disabled={busy || rowCount === 0}>
          {busy ? 'Queueing…' : 'Export'}
        </button>
      }
    >
      <form id={formId} className="export-form" onSubmit={submit}>
        <p className="export-count" role="status">
          {countText}
        </p>
        <fieldset className="export-choice">
          <legend>File type</legend>
          {(['xlsx', 'csv'] as const).map((fileType) => (
            <label key={fileType} className="dt-radio">
              <input type="radio" name="fileType" value={fileType} checked={choice.fileType === fileType} onChange={() => setChoice({ ...choice, fileType })} />
              {fileType === 'xlsx' ? 'Excel workbook (.xlsx)' : 'CSV, comma separated (.csv)'}
            </label>
          ))}
        </fieldset>
        <fieldset className="export-choice">
          <legend>Columns</legend>
          <label className="dt-radio">
            <input
              type="radio"
              name="columns"
              value="visible"
              checked={choice.columns === 'visible'}
              onChange={() => setChoice({ ...choice, columns: 'visible' })}
            />
            The {visibleColumns.length} visible columns
          </label>
          <label className="dt-radio">
            <input type="radio" name="columns" value="all" checked={choice.columns === 'all'} onChange={() => setChoice({ ...choice, columns: 'all' })} />
            All {allColumns.length} columns
          </label>
        </fieldset>
        <p className="export-columns">{columns.join(', ')}</p>
        <p className="export-note">The report is made in the background and waits for you in My report queue for 14 days.</p>
      </form>
    </Modal>
  );
}
