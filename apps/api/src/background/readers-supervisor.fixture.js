'use strict';
// A stand-in for the readers process in the supervisor's tests: it speaks the IPC protocol
// (ready, status, exit with the API) and reads nothing. FIXTURE_EXIT_AT_START=1 exits before ready.
if (process.env.FIXTURE_EXIT_AT_START === '1') process.exit(2);
process.on('message', (message) => {
  if (message.type === 'status') process.send({ type: 'status', id: message.id, report: { projected: 7, published: 7, process_managers: [] } });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
setInterval(() => undefined, 60_000);
process.send({ type: 'ready' });
