import type { ReadinessCheck } from '@sika/platform';

import type { Broker } from './broker';

/**
 * Readiness `broker`: fails while the connection to RabbitMQ is down. amqp-connection-manager keeps
 * reconnecting meanwhile, so the replica is taken out of traffic rather than restarted.
 */
export function brokerReadiness(broker: Pick<Broker, 'isConnected'>): ReadinessCheck {
  return {
    name: 'broker',
    check: async () => {
      if (!broker.isConnected()) throw new Error('not connected to RabbitMQ');
    },
  };
}
