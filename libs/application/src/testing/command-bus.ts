import 'reflect-metadata';
import { Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';

/**
 * A real @nestjs/cqrs CommandBus over `store` with the given handlers, for tests that drive
 * process managers without the HTTP app: the commands go through the same bus as in production.
 */
export async function commandBusFor(
  store: EventStore,
  handlers: Type[],
): Promise<{ commands: CommandBus; close(): Promise<void> }> {
  @Module({ imports: [CqrsModule.forRoot()], providers: [{ provide: EVENT_STORE, useValue: store }, ...handlers] })
  class HandlersModule {}
  const context = await NestFactory.createApplicationContext(HandlersModule, { logger: false });
  return { commands: context.get(CommandBus), close: () => context.close() };
}
