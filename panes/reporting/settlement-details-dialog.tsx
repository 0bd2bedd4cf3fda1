// 'Download settlement details (CSV/XLSX)…': one row per transaction settled in a batch, or in the batches of a
// month, queued in the report queue like every ledger report (the file appears in My report queue). Offered on the
// batch report (a month of the account group) and on a batch (that batch). Shift+G or the palette opens it.
import { type FormEvent, useEffect, useId, useState } from 'react';
import { addDays } from '../../src/contract/calendar-date.ts';
import { encodeDateRange } from '../../src/contract/date-range-filter.ts';
import { Modal } from '../../src/ui/modal.tsx';
import { FileTypeChoice } from './download-dialog.tsx';

export type SettlementDetailsFileType = 'csv' | 'xlsx';
const labels: Record<SettlementDetailsFileType, string> = { xlsx: 'Excel workbook (.xlsx)', csv: 'CSV, comma separated (.csv)' };

/** A month ('YYYY-MM') as the report's date filter: its first to its last day. */
export function monthFilter(month: string): Record<string, string> {
  const first = `${month}-01`;
  const last = addDays(`${addDays(first, 32).slice(0, 7)}-01`, -1);
  const date = encodeDateRange({ start: first, end: last });
  return date ? { date } : {};
}

export function SettlementDetailsDialog({
  open,
  batchId,
  defaultMonth,
  busy,
  onClose,
  onDownload,
}: {
  open: boolean;
  /** the batch the details are of; without one, the dialog asks for a month */
  batchId?: string;
  defaultMonth: string;
  busy: boolean;
  onClose: () => void;
  onDownload: (request: { fileType: SettlementDetailsFileType; month: string | null }) => void;
}) {
  const [fileType, setFileType] = useState<SettlementDetailsFileType>('xlsx');
  const [month, setMonth] = useState(defaultMonth);
  const formId = useId();
  const monthId = useId();
  useEffect(() => {
    if (open) {
      setFileType('xlsx');
      setMonth(defaultMonth);
    }
  }, [open, defaultMonth]);
  const monthValid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || (!batchId && !monthValid)) return;
    onDownload({ fileType, month: batchId ? null : month });
  };
  return (
    <Modal
      open={open}
      title="Download settlement details"
      onClose={onClose}
      size="md"
      closeActionLabel="Cancel"
      footer={
        <button type="submit" form={formId} className="button button-primary" disabled={busy}>
          {busy ? 'Queueing…' : 'Download'}
        </button>
      }
    >
      <form id={formId} className="export-form" onSubmit={submit}>
        <p className="export-count">
          {batchId
            ? `One row per transaction settled in batch ${batchId}: gross, fee and net, payment method and card brand, the original payment of a refund, the dispute of a chargeback, and the payout.`
            : "One row per transaction settled in the month's batches: gross, fee and net, payment method and card brand, the original payment of a refund, the dispute of a chargeback, and the payout."}
        </p>
        {batchId ? null : (
          <div className="form-field">
            <label htmlFor={monthId}>Month</label>
            <input id={monthId} type="month" value={month} required aria-invalid={!monthValid} onChange={(event) => setMonth(event.target.value)} />
            {monthValid ? null : (
              <p className="field-error" role="alert">
                Enter a month as YYYY-MM.
              </p>
            )}
          </div>
        )}
        <FileTypeChoice name="settlementDetailsFileType" types={['xlsx', 'csv'] as const} labels={labels} value={fileType} onChange={setFileType} />
      </form>
    </Modal>
  );
}
