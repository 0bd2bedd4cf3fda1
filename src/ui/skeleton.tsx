// Placeholders while something loads: grey bars in the shape of what comes, announced as busy once.

export function Skeleton({ lines = 3, label = 'Loading' }: { lines?: number; label?: string }) {
  return (
    <div className="skeleton" aria-busy="true" role="status">
      <span className="visually-hidden">{label}…</span>
      {Array.from({ length: lines }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder bars: the place is all there is
        <div key={index} className={`skeleton-line skeleton-line-${(index % 3) + 1}`} aria-hidden="true" />
      ))}
    </div>
  );
}
