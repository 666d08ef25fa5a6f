/**
 * uPlot builds a number format from `navigator.language` when it loads, and Intl refuses some tags
 * browsers report (Chromium under a C/POSIX locale says `en-US@posix`): the chart would fail to
 * load. Such a tag reads as `en-US` here; a valid one is left alone. Imported before uPlot.
 */
try {
  new Intl.NumberFormat(navigator.language);
} catch {
  Object.defineProperty(navigator, 'language', { configurable: true, get: () => 'en-US' });
}
