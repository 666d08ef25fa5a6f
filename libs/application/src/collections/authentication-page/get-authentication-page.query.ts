import { Query } from '@nestjs/cqrs';
import type { AuthenticationPage } from './authentication-page';

/** GET /3ds/{intent_action_id}: what the page shows. */
export class GetAuthenticationPageQuery extends Query<AuthenticationPage> {
  constructor(readonly intentActionId: string) {
    super();
  }
}
