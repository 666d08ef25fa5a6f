import './locale-guard';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Account, StatementEntry } from './types';

/**
 * The balance over time: the account's statement (each entry carries the balance after it),
 * oldest first, from zero at the account's opening. Steps, since a balance holds between entries.
 */
export function balanceChart(
  target: HTMLElement,
  account: Account,
  entries: readonly StatementEntry[],
  fromOpening = true,
): uPlot {
  const digits = minorDigits(account.currency);
  const xs: number[] = fromOpening ? [account.created / 1000] : [];
  const current: number[] = fromOpening ? [0] : [];
  const available: number[] = fromOpening ? [0] : [];
  for (const entry of entries) {
    // Entries are in statement order; a time equal to (or, by clock skew between writers, before) the last keeps its place.
    xs.push(Math.max(entry.created / 1000, xs[xs.length - 1] ?? 0));
    current.push(entry.balance_after.current / 10 ** digits);
    available.push(entry.balance_after.available / 10 ** digits);
  }
  const width = Math.max(320, contentWidth(target) || 720);
  const options: uPlot.Options = {
    width,
    height: 260,
    title: `Balance (${account.currency})`,
    scales: { x: { time: true } },
    series: [
      {},
      {
        label: 'current',
        stroke: '#2563eb',
        width: 2,
        fill: 'rgba(37, 99, 235, 0.08)',
        paths: uPlot.paths.stepped!({ align: 1 }),
      },
      { label: 'available', stroke: '#059669', width: 2, dash: [6, 4], paths: uPlot.paths.stepped!({ align: 1 }) },
    ],
    axes: [{}, { size: 80 }],
  };
  const plot = new uPlot(options, [xs, current, available], target);
  // Drawn before the view is on the page: it takes the width of its place once it has one.
  new ResizeObserver(() => {
    const width = contentWidth(target);
    if (width > 0 && width !== plot.width) plot.setSize({ width, height: 260 });
  }).observe(target);
  return plot;
}

function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** The width inside the target's padding: the chart and its legend fit in it. */
function contentWidth(target: HTMLElement): number {
  const style = getComputedStyle(target);
  return Math.floor(target.clientWidth - parseFloat(style.paddingLeft || '0') - parseFloat(style.paddingRight || '0'));
}
