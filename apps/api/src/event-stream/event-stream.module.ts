import { Module } from '@nestjs/common';
import { StreamEventsHandler } from '@app/webhook-delivery/event-stream/stream-events.handler';
import { EventStreamController } from './event-stream.controller';
import { EventStreamSettings, OpenEventStreams } from './open-event-streams';

/** `GET /events/stream`: the organization's public events as they happen (what `npm run listen` reads). */
@Module({
  controllers: [EventStreamController],
  providers: [StreamEventsHandler, OpenEventStreams, EventStreamSettings],
})
export class EventStreamModule {}
