// 'Download statement…': the file type (PDF, Excel, CSV) of a statement or ledger report, queued in the report
// queue with the list's filters; the file appears in My report queue.
import { type FormEvent, useEffect, useState } from 'react';
import { FormModal } from '../../src/ui/form-modal.tsx';

export type LedgerFileType = 'pdf' | 'xlsx' | 'csv' | 'camt053';
const labels: Record<LedgerFileType, string> = {
  pdf: 'PDF, for reading and printing (.pdf)',
  xlsx: 'Excel workbook (.xlsx)',
  csv: 'CSV, comma separated (.csv)',
  camt053: 'ISO 20022 camt.053 bank statement for accounting software (.xml)',
};

export function DownloadDialog({
  open,
  title,
  summary,
  busy,
  onClose,
  onDownload,
  camt053 = false,
}: {
  open: boolean;
  title: string;
  summary: string;
  busy: boolean;
  onClose: () => void;
  onDownload: (fileType: LedgerFileType) => void;
  /** offer the camt.053 XML of a statement */
  camt053?: boolean;
}) {
  const [fileType, setFileType] = useState<LedgerFileType>('pdf');
  useEffect(() => {
    if (open) setFileType('pdf');
  }, [open]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onDownload(fileType);
  };
  return (
    <FormModal
      open={open}
      title={title}
      onClose={onClose}
      size="md"
      closeActionLabel="Cancel"
      submitLabel="Download"
      busyLabel="Queueing…"
      busy={busy}
      formClassName="export-form"
      onSubmit={submit}
    >
      <p className="export-count">{summary}</p>
      <FileTypeChoice
        name="fileType"
        types={camt053 ? ['pdf', 'xlsx', 'csv', 'camt053'] : ['pdf', 'xlsx', 'csv']}
        labels={labels}
        value={fileType}
        onChange={setFileType}
      />
    </FormModal>
  );
}

/** A statement's file type as radio buttons (the download and the schedule dialogs). */
export function FileTypeChoice<T extends string>({
  name,
  types,
  labels: typeLabels,
  value,
  onChange,
}: {
  name: string;
  types: readonly T[];
  labels: Record<T, string>;
  value: T;
  onChange: (type: T) => void;
}) {
  return (
    <fieldset className="export-choice">
      <legend>File type</legend>
      {types.map((type) => (
        <label key={type} className="dt-radio">
          <input type="radio" name={name} value={type} checked={value === type} onChange={() => onChange(type)} />
          {typeLabels[type]}
        </label>
      ))}
    </fieldset>
  );
}
