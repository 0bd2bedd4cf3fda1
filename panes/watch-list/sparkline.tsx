// A trend as a small inline chart: an image with a text alternative that says what it shows.
export function Sparkline({ values, label, width = 96, height = 24 }: { values: readonly number[]; label: string; width?: number; height?: number }) {
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values.map((value, index) => `${(index * step).toFixed(1)},${(height - 2 - (value / max) * (height - 4)).toFixed(1)}`).join(' ');
  return (
    <svg className="sparkline" role="img" aria-label={label} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}

/** 'Score over 30 days: from 0 to 68, highest 68' */
export function trendLabel(values: readonly number[]): string {
  if (values.length === 0) return 'No trend yet';
  return `Score over ${values.length} days: from ${values[0]} to ${values[values.length - 1]}, highest ${Math.max(...values)}`;
}
