import { exitOnStartupFailure, serve } from './serve';

/** `npm start`: the API, projector and publisher in one process on the configured adapters. */
serve({ projector: true, publisher: true }).catch(exitOnStartupFailure);
