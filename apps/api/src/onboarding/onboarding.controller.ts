import { Body, Controller, HttpCode, Param, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { invalid } from '@app/domain';
import { ReviewEntityCommand, SubmitOnboardingCommand, UploadDocumentCommand } from '@app/application/onboarding';
import { DomainException, type CommandContext } from '@app/application/command-handling';
import { ApiKeyOnly, Ctx, SandboxOnly } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { Accepts } from '../http/media-types';
import { DocumentUploadInterceptor } from './document-upload.interceptor';
import { IdempotencyInterceptor } from '../http/idempotency/idempotency.interceptor';
import { UploadDocumentDto } from './document.dto';
import { presentDocument } from '@app/read-models/onboarding/document.presenter';
import { presentEntity } from '@app/read-models/onboarding/entity.presenter';

export class SubmitOnboardingDto {
  /** Required with an API key; inferred from an entity token. */
  @IsOptional()
  @IsString()
  @Matches(/^ent_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;
}

export class SandboxReviewDto {
  @IsIn(['approved', 'rejected'], { message: 'decision must be approved or rejected' })
  decision: 'approved' | 'rejected';

  @IsOptional()
  @IsString()
  @Length(1, 500)
  reason?: string;
}

@Controller()
export class OnboardingController {
  constructor(private readonly commands: CommandBus) {}

  @Post('documents/upload')
  // Idempotency-Key after the multipart parser, so the fingerprint covers the file (decisions §13).
  @UseInterceptors(DocumentUploadInterceptor, IdempotencyInterceptor)
  @Accepts('multipart')
  async upload(@Ctx() ctx: CommandContext, @Body() body: UploadDocumentDto, @UploadedFile() file: Express.Multer.File | undefined) {
    if (!file) throw new DomainException(invalid('file', 'file is required (multipart/form-data, field "file")'));
    const upload = { key: body.key, personId: body.link_to_identity?.person_id, bytes: file.buffer, filename: file.originalname || null };
    return presentDocument(await this.commands.execute(new UploadDocumentCommand(ctx, upload)));
  }

  /** Acts on an existing entity (decisions §2), so 200 with the entity, still `pending`. */
  @Post('onboarding-submissions')
  @HttpCode(200)
  async submit(@Ctx() ctx: CommandContext, @Body() body: SubmitOnboardingDto) {
    return presentEntity(await this.commands.execute(new SubmitOnboardingCommand(ctx, entityScope(ctx.actor, body.entity_id))));
  }

  @Post('sandbox/entities/:id/review')
  @ApiKeyOnly()
  @SandboxOnly()
  @HttpCode(200)
  async review(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: SandboxReviewDto) {
    return presentEntity(await this.commands.execute(new ReviewEntityCommand(ctx, { entityId: id, decision: body.decision, reason: body.reason ?? null })));
  }
}
