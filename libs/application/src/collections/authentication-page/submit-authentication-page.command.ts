import { Command } from '@nestjs/cqrs';
import type { AuthenticationResult } from '@app/domain/collections';
import type { AuthenticationPage } from './authentication-page';

export interface PageOutcome extends AuthenticationPage {
  /** Where the browser goes next (303): `return_url` with the decided query. */
  readonly redirect: string | null;
}

/** The page's approve or fail button. A used, expired or live page acts on nothing. */
export class SubmitAuthenticationPageCommand extends Command<PageOutcome> {
  constructor(
    readonly intentActionId: string,
    readonly result: AuthenticationResult,
    readonly requestId: string,
  ) {
    super();
  }
}
