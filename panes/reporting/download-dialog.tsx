// 'Download statement…': the file type (PDF, Excel, CSV) of a statement or ledger report, queued in the report
// queue with the list's filters; the file appears in My report queue.
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Modal } from '../../src/ui/modal.tsx';

export type LedgerFileType = 'pdf' | 'xlsx' | 'csv' | 'camt053';
const labels: Record<LedgerFileType, string> = {
  pdf: 'PDF, for reading and printing (.pdf)', xlsx: 'Excel workbook (.xlsx)', csv: 'CSV, comma separated (.csv)',
  camt053: 'ISO 20022 camt.053 bank statement for accounting software (.xml, downloads at once)',
};

export function DownloadDialog({ open, title, summary, busy, onClose, onDownload, camt053 = false }: {
  open: boolean; title: string; summary: string; busy: boolean; onClose: () => void; onDownload: (fileType: LedgerFileType) => void;
  /** offer the camt.053 XML of a statement */
  camt053?: boolean;
}) {
  const [fileType, setFileType] = useState<LedgerFileType>('pdf');
  const formId = useId();
  useEffect(() => {
    if (open) setFileType('pdf');
  }, [open]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onDownload(fileType);
  };
  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      size="md"
      closeActionLabel="Cancel"
      footer={<button type="submit" form={formId} className="button button-primary" disabled={busy}>{busy ? 'Queueing…' : 'Download'}</button>}
    >
      <form id={formId} className="export-form" onSubmit={submit}>
        <p className="export-count">{summary}</p>
        <fieldset className="export-choice">
          <legend>File type</legend>
          {(camt053 ? ['pdf', 'xlsx', 'csv', 'camt053'] as const : ['pdf', 'xlsx', 'csv'] as const).map((type) => (
            <label key={type} className="dt-radio">
              <input type="radio" name="fileType" value={type} checked={fileType === type} onChange={() => setFileType(type)} />
              {labels[type]}
            </label>
          ))}
        </fieldset>
      </form>
    </Modal>
  );
}
