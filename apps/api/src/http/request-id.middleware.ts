import type { NextFunction, Request, Response } from 'express';
import { ulid } from '@app/platform/ids/ulid';
import { logger } from '@app/platform/logging/logger';

/** Every response carries x-request-id: the caller's when it is sane, otherwise a new one. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : `req_${ulid()}`;
  req.headers['x-request-id'] = id;
  res.setHeader('x-request-id', id);
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    logger.info(
      { request_id: id, method: req.method, path: req.path, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 },
      'request',
    );
  });
  next();
}
