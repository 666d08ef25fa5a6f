import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import type { Response } from 'express';
import { catchError, finalize, from, of, switchMap, throwError, type Observable } from 'rxjs';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import {
  IDEMPOTENCY_STORE,
  type IdempotencyStore,
  type StoredAnswer,
} from '@app/platform/idempotency/idempotency-store.port';
import { logger } from '@app/platform/logging/logger';
import { SECRET_BOX, type SecretBox } from '@app/platform/security/secret-box';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import {
  fingerprintOf,
  IDEMPOTENCY_HEADER,
  IDEMPOTENT_METHODS,
  parseIdempotencyKey,
  scopeOf,
  type UploadedPart,
} from './idempotency-key';
import { holdEnd, sendStored } from './response-capture';

/** Set on a request whose route runs this interceptor itself, after parsing its own body. */
const DEFERRED = Symbol('idempotency:deferred');

type IdempotentRequest = AuthenticatedRequest & { [DEFERRED]?: true; file?: UploadedPart };

/**
 * `Idempotency-Key` on POST, PATCH and DELETE (decisions §13; docs/decisions/idempotency.md).
 *
 * Global, so it runs after the AuthGuard (which resolved the caller and spent its rate limit)
 * and before the pipes and the handler: a validation 400 is an answer it sees, and releases.
 * Requests without the header, without a credential (health, the 3-D Secure pages, the operator
 * API) or with another method pass untouched.
 *
 * With a valid key it claims the key in the idempotency store: the first request runs, under a
 * lease renewed while it runs, and its answer (status, body, content-type and location, written
 * by the handler or by the error envelope filter alike) is stored before the client receives it,
 * unless §13 says not to: then the key is released and a retry runs again. Same key and request
 * again: the stored answer with `Idempotent-Replayed: true`; another request: 422
 * `idempotency_key_reused`; while the first runs: 409 `idempotency_key_in_use`.
 *
 * A route whose body is parsed by its own interceptor (a multipart upload) lists this one after
 * it, so the fingerprint covers the file: the global run then only checks the key and defers.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly leaseMs: number;
  private readonly ttlMs: number;

  constructor(
    @Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {
    this.leaseMs = config.idempotencyLeaseSeconds * 1000;
    this.ttlMs = config.idempotencyTtlSeconds * 1000;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<IdempotentRequest>();
    const header = req.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || !req.actor || !IDEMPOTENT_METHODS.has(req.method)) return next.handle();
    const key = parseIdempotencyKey(header);
    if (typeof key !== 'string') throw new DomainException(key);
    if (!req[DEFERRED] && routeRunsItAfterItsParser(context)) {
      req[DEFERRED] = true;
      return next.handle();
    }
    const res = context.switchToHttp().getResponse<Response>();
    return from(this.run(req, res, key, next)).pipe(switchMap((result) => result));
  }

  private async run(
    req: IdempotentRequest,
    res: Response,
    key: string,
    next: CallHandler,
  ): Promise<Observable<unknown>> {
    const scope = scopeOf(req.actor!);
    const owner = randomUUID();
    const fingerprint = fingerprintOf({ method: req.method, url: req.originalUrl, body: req.body, file: req.file });
    const claim = await this.store.claim({ scope, key, fingerprint, owner, leaseMs: this.leaseMs, ttlMs: this.ttlMs });
    switch (claim.outcome) {
      case 'reused':
        throw new DomainException(
          domainError(
            'rule',
            'idempotency_key_reused',
            'This Idempotency-Key was used with another request (method, path or body); use a new key for a new request',
          ),
        );
      case 'in_use':
        res.setHeader('Retry-After', '1');
        throw new DomainException(
          domainError(
            'conflict',
            'idempotency_key_in_use',
            'A request with this Idempotency-Key is still running; retry once it has answered',
          ),
        );
      case 'replay':
        sendStored(res, { ...claim.answer, body: this.box.open(claim.answer.body.toString('utf8')) });
        return of(undefined);
      case 'claimed':
        if (claim.takenOver)
          logger.warn(
            { request_id: req.headers['x-request-id'], scope },
            'idempotency key taken over after its lease ran out',
          );
        return this.runClaimed(req, res, { scope, key, owner }, next);
    }
  }

  private runClaimed(
    req: IdempotentRequest,
    res: Response,
    claim: { scope: string; key: string; owner: string },
    next: CallHandler,
  ): Observable<unknown> {
    const { scope, key, owner } = claim;
    let failure: unknown;
    let answered = false;
    let handled = false;
    const renewal = setInterval(
      () => {
        this.store.renew(scope, key, owner, this.leaseMs).then(
          (held) => {
            if (held || answered) return;
            clearInterval(renewal);
            logger.warn(
              { request_id: req.headers['x-request-id'], scope },
              'idempotency key lost while its request ran (its lease ran out)',
            );
          },
          (err) => logger.error({ err, scope }, 'idempotency lease renewal failed'),
        );
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    renewal.unref();
    const settle = async (answer: StoredAnswer) => {
      if (answered) return;
      answered = true;
      clearInterval(renewal);
      try {
        if (isStored(answer.status, failure)) {
          // Sealed: an answer may carry a card number and CVV, a new API key or a webhook secret.
          const sealed = { ...answer, body: Buffer.from(this.box.seal(answer.body), 'utf8') };
          if (!(await this.store.complete(scope, key, owner, sealed))) {
            logger.warn(
              { request_id: req.headers['x-request-id'], scope },
              'idempotency answer not stored: the key was taken over meanwhile',
            );
          }
        } else {
          await this.store.release(scope, key, owner);
        }
      } catch (err) {
        // The client still gets its answer; the key frees itself when its lease runs out.
        logger.error({ err, scope }, 'idempotency answer could not be stored');
      }
    };
    holdEnd(res, settle);
    // A response that ends without an answer (its connection gone, nothing written) frees the key.
    const abandon = () => {
      if (handled && !answered && (res.destroyed || res.writableFinished))
        void settle({ status: 499, headers: {}, body: Buffer.alloc(0) });
    };
    res.once('close', abandon);
    return next.handle().pipe(
      catchError((error: unknown) => {
        failure = error;
        return throwError(() => error);
      }),
      finalize(() => {
        handled = true;
        setImmediate(abandon);
      }),
    );
  }
}

/**
 * Decisions §13: stored are 2xx, 409 conflicts (a duplicate reference) and 422 business rules;
 * not stored (released, so a retry runs again): validation errors (400, and the 422
 * `validation_error` of transfer creation), 401, 403, 404, 413 (the input refused before it
 * ran, as a 400), 429, 409 `idempotency_key_in_use` and 5xx.
 */
export function isStored(status: number, failure: unknown): boolean {
  if (status >= 500 || [400, 401, 403, 404, 413, 429, 499].includes(status)) return false;
  if (
    failure instanceof DomainException &&
    (failure.error.kind === 'validation' ||
      failure.error.code === 'validation_error' ||
      failure.error.code === 'idempotency_key_in_use')
  ) {
    return false;
  }
  return true;
}

/** The route lists this interceptor itself (after the interceptor that parses its body). */
function routeRunsItAfterItsParser(context: ExecutionContext): boolean {
  const listed: unknown[] = Reflect.getMetadata(INTERCEPTORS_METADATA, context.getHandler()) ?? [];
  return listed.includes(IdempotencyInterceptor);
}
