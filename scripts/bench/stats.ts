// Distribution helpers for the benchmarks: figures are percentiles and ratios from one run on one machine.
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/**
 * Two measurements taken in alternation, one sample of each per round (after the same warm-up), so both see the
 * same machine: on a shared machine, load drifts over the seconds a block of samples takes.
 */
export async function timeAlternately(
  first: () => Promise<unknown>,
  second: () => Promise<unknown>,
  iterations: number,
  warmup = 10,
): Promise<[number[], number[]]> {
  for (let index = 0; index < warmup; index += 1) {
    await first();
    await second();
  }
  const samples: [number[], number[]] = [[], []];
  for (let index = 0; index < iterations; index += 1) {
    for (const [position, run] of [first, second].entries()) {
      const started = performance.now();
      await run();
      samples[position]?.push(performance.now() - started);
    }
  }
  return samples;
}

export const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 1)} ms` : 'n/a');

export function markdownTable(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}
