// 1024-based file sizes: 1536 → '1.5 KB', 5242880 → '5 MB'.

const units = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
const numberFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return 'N/A';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${numberFormat.format(unit === 0 ? Math.round(value) : value)} ${units[unit]}`;
}
