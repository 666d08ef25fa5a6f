'use strict';
// A stand-in for the worker in the supervisor's tests: it speaks the IPC protocol (ready, status,
// heartbeat, metrics, exit with the API) and reads nothing. FIXTURE_EXIT_AT_START=1 exits before ready.
if (process.env.FIXTURE_EXIT_AT_START === '1') process.exit(2);
process.on('message', (message) => {
  if (message.type === 'ping') process.send({ type: 'pong', id: message.id });
  else if (message.type === 'status') {
    process.send({
      type: 'status',
      id: message.id,
      report: {
        roles: ['projector', 'publisher', 'webhooks', 'process-managers'],
        projected: 7,
        published: 7,
        process_managers: [],
        tail: null,
        rss_bytes: 1,
      },
    });
  } else if (message.type === 'metrics') {
    // As prom-client's getMetricsAsJSON gives them: a webhook counter of the worker and an append counter both processes have.
    process.send({
      type: 'metrics',
      id: message.id,
      metrics: [
        {
          name: 'payments_webhook_deliveries_total',
          help: 'attempts',
          type: 'counter',
          aggregator: 'sum',
          values: [{ value: 3, labels: { outcome: 'succeeded' } }],
        },
        {
          name: 'payments_event_store_appends_total',
          help: 'appends',
          type: 'counter',
          aggregator: 'sum',
          values: [{ value: 5, labels: { outcome: 'ok' } }],
        },
      ],
    });
  }
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
setInterval(() => undefined, 60_000);
process.send({ type: 'ready' });
