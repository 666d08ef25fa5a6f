import { ApiBody, ApiConsumes, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Body, Controller, HttpCode, Param, Post, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { ReviewEntityCommand, SubmitOnboardingCommand, UploadDocumentCommand } from '@app/application/onboarding';
import type { CommandContext } from '@app/application/command-handling';
import { ApiKeyOnly, Ctx, SandboxOnly } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { Accepts } from '../http/media-types';
import { DocumentUploadInterceptor } from './document-upload.interceptor';
import { IdempotencyInterceptor } from '../http/idempotency/idempotency.interceptor';
import { UploadDocumentDto } from './document.dto';
import { presentDocument } from '@app/read-models/onboarding/document.presenter';
import { presentEntity } from '@app/read-models/onboarding/entity.presenter';
import { ApiRoute } from '../openapi/api-route.decorator';

export class SubmitOnboardingDto {
  /** Required with an API key; inferred from an entity token. */
  @ApiPropertyOptional({
    pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$',
    description: 'Required with an API key; inferred from an entity token',
  })
  @IsOptional()
  @IsString()
  @Matches(/^ent_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;
}

export class SandboxReviewDto {
  @ApiProperty({ enum: ['approved', 'rejected'] })
  @IsIn(['approved', 'rejected'], { message: 'decision must be approved or rejected' })
  decision: 'approved' | 'rejected';

  @ApiPropertyOptional({ minLength: 1, maxLength: 500 })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  reason?: string;
}

@ApiTags('Entities')
@Controller()
export class OnboardingController {
  constructor(private readonly commands: CommandBus) {}

  @Post('documents/upload')
  // Idempotency-Key after the multipart parser, so the fingerprint covers the file (decisions §13).
  @UseInterceptors(DocumentUploadInterceptor, IdempotencyInterceptor)
  @Accepts('multipart')
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['key', 'file'],
      properties: {
        key: {
          enum: ['identity', 'address'],
          description: 'identity: a government photo ID; address: a proof of address dated within 3 months',
        },
        'link_to_identity[person_id]': {
          type: 'string',
          pattern: '^per_[0-9A-HJKMNP-TV-Z]{26}$',
          description: 'The person_id of the individual entity',
        },
        file: { type: 'string', format: 'binary', description: 'PDF, JPEG or PNG (judged by content), at most 10 MB' },
      },
    },
  })
  @ApiRoute({
    id: 'uploadDocument',
    summary: 'Upload a KYC document',
    ok: {
      status: 201,
      schema: 'Document',
      description: 'The document (its metadata; the bytes are never served back)',
    },
    errors: {
      400: 'Missing file or key, a file that is not PDF, JPEG or PNG, or a malformed multipart body (validation_error, invalid_multipart)',
      403: 'Another entity’s person (forbidden)',
      404: 'No such person (person_not_found)',
      413: 'The file exceeds 10 MB (file_too_large)',
    },
  })
  async upload(@Ctx() ctx: CommandContext, @Body() body: UploadDocumentDto) {
    const upload = {
      key: body.key,
      personId: body.link_to_identity?.person_id,
      bytes: body.file.buffer,
      filename: body.file.originalname || null,
    };
    return presentDocument(await this.commands.execute(new UploadDocumentCommand(ctx, upload)));
  }

  /** Acts on an existing entity (decisions §2), so 200 with the entity, still `pending`. */
  @Post('onboarding-submissions')
  @HttpCode(200)
  @ApiRoute({
    id: 'submitOnboarding',
    summary: 'Submit an entity for review',
    description: 'Reviewed asynchronously; the result fires entities.updated.',
    ok: { status: 200, schema: 'Entity', description: 'The entity, still pending' },
    errors: {
      403: 'Another entity’s (forbidden)',
      404: 'No such entity (entity_not_found)',
      409: 'Already under review or decided (entity_under_review, entity_already_decided)',
      422: 'Documents or business details missing (documents_missing, business_details_missing)',
    },
  })
  async submit(@Ctx() ctx: CommandContext, @Body() body: SubmitOnboardingDto) {
    return presentEntity(
      await this.commands.execute(new SubmitOnboardingCommand(ctx, entityScope(ctx.actor, body.entity_id))),
    );
  }

  @Post('sandbox/entities/:id/review')
  @ApiKeyOnly()
  @SandboxOnly()
  @HttpCode(200)
  @ApiRoute({
    id: 'sandboxReviewEntity',
    summary: 'Sandbox: decide a submitted entity',
    ok: { status: 200, schema: 'Entity', description: 'The decided entity' },
    errors: { 404: 'No such entity (entity_not_found)', 409: 'Not under review (entity_not_under_review)' },
  })
  async review(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: SandboxReviewDto) {
    return presentEntity(
      await this.commands.execute(
        new ReviewEntityCommand(ctx, { entityId: id, decision: body.decision, reason: body.reason ?? null }),
      ),
    );
  }
}
