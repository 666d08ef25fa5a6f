import type { NextFunction, Request, Response } from 'express';
import { httpRequestDuration, httpRequests } from '@app/platform/metrics/metrics';

/**
 * `http_requests_total` and `http_request_duration_seconds` by method, route template and status.
 * The route is Express's matched template (`/accounts/:id`), read once the answer is sent, so ids
 * never become labels; a request no route matched (404, or refused by middleware before routing:
 * 405, 415, 503 overloaded) is `unmatched`.
 */
export function httpMetrics(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  let recorded = false;
  const record = () => {
    if (recorded) return;
    recorded = true;
    const route = (req.route as { path?: unknown } | undefined)?.path;
    const labels = {
      method: req.method,
      route: typeof route === 'string' ? route : 'unmatched',
      status: String(res.statusCode),
    };
    httpRequests.inc(labels);
    httpRequestDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  };
  res.once('finish', record);
  res.once('close', record);
  next();
}
