import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import type { PlatformConfig } from '@app/platform/config/platform-config';
import { AppModule, type ApiOptions } from './app.module';
import { ErrorEnvelopeFilter } from './http/error-envelope.filter';
import { PinoNestLogger } from '@app/platform/logging/pino-nest-logger';
import { strictValidationPipe } from './http/validation.pipe';
import { RequestInterceptor } from './http/request.interceptor';
import { IdempotencyInterceptor } from './http/idempotency/idempotency.interceptor';
import { RouteTable } from './http/route-table';
import { attachOpenApi, OpenApiDocuments } from './openapi/docs.controller';
import { compressAnswers } from './http/browser-access';

/** Builds the API exactly as `npm start` and `start:api` run it; tests use the same function. */
export async function createApi(config: PlatformConfig, options: ApiOptions = {}): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule.forRoot(config, options), {
    bodyParser: false,
    logger: new PinoNestLogger(),
  });
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  // Weak ETags on answers (Express's etag: a hash of the body), so a GET repeated with If-None-Match is a 304 without the body (issue 32 item 6).
  app.getHttpAdapter().getInstance().set('etag', 'weak');
  app.use(compressAnswers());
  app.useGlobalPipes(strictValidationPipe());
  // The query parameters a route takes are those its OpenAPI document lists, built on first use.
  const documents = app.get(OpenApiDocuments);
  // One global interceptor: Idempotency-Key, then unexpected bodies and query parameters (request.interceptor.ts).
  app.useGlobalInterceptors(new RequestInterceptor(app.get(IdempotencyInterceptor), () => documents.document()));
  app.useGlobalFilters(new ErrorEnvelopeFilter());
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.init();
  // Read once now that every route is registered, so a router it cannot read fails the start, not a request.
  RouteTable.read(app.getHttpAdapter().getInstance());
  // GET /openapi.json builds the document from the app's controllers on first use.
  attachOpenApi(app);
  return app;
}
