/** Who is acting: resolved from the bearer credential, or a process manager acting for an organization. */
export interface Actor {
  readonly kind: 'api_key' | 'entity_token' | 'system';
  readonly organizationId: string;
  readonly mode: 'sandbox' | 'live';
  /** The API key id, the token's issuing key id, or the process manager's name. */
  readonly id: string;
  /** Set for entity tokens: every resource must belong to this entity. */
  readonly entityId?: string;
}

export interface CommandContext {
  readonly actor: Actor;
  readonly correlationId: string;
  /** The request id or the event that caused this command. */
  readonly causationId: string;
}

export const systemActor = (organizationId: string, name: string, mode: Actor['mode'] = 'sandbox'): Actor => ({
  kind: 'system',
  organizationId,
  mode,
  id: name,
});
