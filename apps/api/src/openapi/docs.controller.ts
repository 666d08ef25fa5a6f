import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  Controller,
  Get,
  Injectable,
  Module,
  NotFoundException,
  Param,
  Res,
  type INestApplication,
} from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../http/auth/auth.decorators';
import { ApiRoute } from './api-route.decorator';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document';

/** The document of this app, built once on first use (createApi attaches the app once every route is registered). */
@Injectable()
export class OpenApiDocuments {
  private app: INestApplication | null = null;
  private built: OpenApiDocument | null = null;

  attach(app: INestApplication): void {
    this.app = app;
  }

  document(): OpenApiDocument {
    if (!this.built) {
      if (!this.app) throw new Error('OpenApiDocuments: no app attached (createApi attaches it)');
      this.built = buildOpenApiDocument(this.app);
    }
    return this.built;
  }
}

/** swagger-ui-dist, the copy @nestjs/swagger depends on: the page's assets, served by the API itself (no CDN). */
const SWAGGER_UI = dirname(
  require.resolve('swagger-ui-dist/package.json', {
    paths: [dirname(require.resolve('@nestjs/swagger/package.json'))],
  }),
);

/** Starts Swagger UI on /openapi.json; a file, so the page's CSP needs no inline script. */
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: false, validatorUrl: null });
};
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Payments platform API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-initializer.js"></script>
</body>
</html>
`;

const ASSETS: Record<string, { readonly type: string; readonly body: () => Buffer | string }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', body: file('swagger-ui.css') },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', body: file('swagger-ui-bundle.js') },
  'favicon-32x32.png': { type: 'image/png', body: file('favicon-32x32.png') },
  'swagger-initializer.js': { type: 'text/javascript; charset=utf-8', body: () => INITIALIZER },
};

function file(name: string): () => Buffer {
  let bytes: Buffer | null = null;
  return () => (bytes ??= readFileSync(join(SWAGGER_UI, name)));
}

/** Everything the page loads comes from this origin: the policy says so, and a browser enforces it. */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** `GET /openapi.json` (the contract, no credential) and the docs page `GET /docs` with its assets. */
@Controller()
@Public()
@ApiTags('Platform')
export class DocsController {
  constructor(private readonly documents: OpenApiDocuments) {}

  @Get('openapi.json')
  @ApiRoute({
    id: 'getOpenApiDocument',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API, generated from its controllers and DTOs.',
    ok: { status: 200, schema: 'OpenApiDocument', description: 'The OpenAPI document' },
  })
  openapi() {
    return this.documents.document();
  }

  @Get('docs')
  @ApiRoute({
    id: 'getDocsPage',
    summary: 'The API reference page',
    description: 'Swagger UI on /openapi.json; its assets are served by the API itself.',
    ok: { status: 200, mediaType: 'text/html', description: 'The page' },
  })
  page(@Res() res: Response) {
    res
      .set({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': PAGE_POLICY,
        'x-content-type-options': 'nosniff',
      })
      .send(PAGE);
  }

  @Get('docs/:asset')
  @ApiParam({ name: 'asset', enum: Object.keys(ASSETS) })
  @ApiRoute({
    id: 'getDocsAsset',
    summary: 'An asset of the docs page',
    ok: {
      status: 200,
      mediaType: ['text/javascript', 'text/css', 'image/png'],
      description: 'A script, the style sheet or the icon of the page',
    },
    errors: { 404: 'No such asset (not_found)' },
  })
  asset(@Param('asset') name: string, @Res() res: Response) {
    const asset = Object.prototype.hasOwnProperty.call(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw new NotFoundException(`Cannot GET /docs/${name}`);
    res
      .set({ 'content-type': asset.type, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' })
      .send(asset.body());
  }
}

@Module({ controllers: [DocsController], providers: [OpenApiDocuments], exports: [OpenApiDocuments] })
export class DocsModule {}

/** Lets the docs routes build the document from the app (createApi, once every route is registered). */
export function attachOpenApi(app: INestApplication): void {
  app.get(OpenApiDocuments).attach(app);
}
