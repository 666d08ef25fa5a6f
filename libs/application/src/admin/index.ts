export * from './operator-actor/operator-actor.query';
export * from './operator-actor/operator-actor.handler';
export * from './list-organization-events/public-event';
export * from './list-organization-events/list-organization-events.query';
export * from './list-organization-events/list-organization-events.handler';
