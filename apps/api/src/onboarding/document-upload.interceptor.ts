import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import { domainError } from '@app/domain';
import { MAX_DOCUMENT_BYTES } from '@app/application/onboarding';
import { DomainException } from '@app/application/command-handling';
import { checkShape } from '../http/request-shape.middleware';

/**
 * Parses the multipart body of a document upload into memory (one `file`, a few text fields),
 * after authentication, and turns multer's failures into the error envelope: 413 above 10 MB.
 * Its fields then obey the JSON bodies' shape rules (decisions §2): the edge checked the body
 * before this parser ran, and class-transformer would silently drop a `__proto__` or
 * `link_to_identity[constructor]` field that the validation pipe should have refused.
 */
@Injectable()
export class DocumentUploadInterceptor implements NestInterceptor {
  private readonly parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024 },
  }).single('file');

  async intercept(context: ExecutionContext, next: CallHandler) {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    await new Promise<void>((resolve, reject) =>
      this.parse(req, http.getResponse<Response>(), (error: unknown) => (error ? reject(translate(error)) : resolve())),
    );
    checkShape(req.body, 'body');
    withFile(req);
    return next.handle();
  }
}

/**
 * The file part joins the text fields in the body, so the route's DTO (and the one validation
 * pipe) refuses a missing file as it refuses a missing key. Not enumerable: the idempotency
 * fingerprint reads the body's own fields and the file apart, as before; the DTO's field is
 * @Expose()d so class-transformer reads it. A text field named `file` stays what it is, so the
 * DTO refuses it as not a file.
 */
function withFile(req: Request): void {
  const body = req.body as Record<string, unknown> | undefined;
  if (!body || Object.hasOwn(body, 'file')) return;
  Object.defineProperty(body, 'file', { value: req.file, enumerable: false });
}

function translate(error: unknown): DomainException {
  const { code, field } = error as { code?: string; field?: string };
  if (code === 'LIMIT_FILE_SIZE') {
    return new DomainException(
      domainError('too_large', 'file_too_large', `The file exceeds the ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB limit`, {
        errors: [{ field: 'file', message: 'the file must be at most 10 MB' }],
      }),
    );
  }
  if (code === 'LIMIT_UNEXPECTED_FILE' || code === 'LIMIT_FILE_COUNT') {
    const name = field ?? 'file';
    return new DomainException(
      domainError('validation', 'validation_error', `Only one file, in the field "file", is accepted`, {
        errors: [{ field: name, message: `${name} is not an accepted file field` }],
      }),
    );
  }
  const message = error instanceof Error ? error.message : 'The multipart body could not be read';
  return new DomainException(domainError('validation', 'invalid_multipart', message));
}
