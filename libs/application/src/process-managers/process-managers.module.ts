import { Global, Module } from '@nestjs/common';
import { ProcessManagerRunners } from './process-manager-runners';

/** One registry of runners per process, shared by every feature that starts a process manager. */
@Global()
@Module({ providers: [ProcessManagerRunners], exports: [ProcessManagerRunners] })
export class ProcessManagersModule {}
