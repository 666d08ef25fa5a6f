import { Module } from '@nestjs/common';
import { StreamEventsHandler } from '@app/webhook-delivery/event-stream/stream-events.handler';
import { AccessModule } from '../../access/access.module';
import { EventStreamController } from './event-stream.controller';
import { EventStreamSettings, OpenEventStreams } from './open-event-streams';

/** `GET /events/stream`: the organization's public events as they happen (what `npm run listen` reads). */
@Module({
  imports: [AccessModule],
  controllers: [EventStreamController],
  providers: [StreamEventsHandler, OpenEventStreams, EventStreamSettings],
})
export class EventStreamModule {}
