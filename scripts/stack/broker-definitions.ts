/**
 * Prints the local stack's RabbitMQ definitions (the services' users, passwords and permissions) as JSON,
 * for an administrator to import where scripts/stack/main.ts cannot (see broker-users.ts BY_HAND):
 * `node --import tsx scripts/stack/broker-definitions.ts | rabbitmqctl import_definitions`.
 */
import { join, resolve } from 'node:path';

import { brokerDefinitions } from '../../packages/messaging/src/accounts';
import { localBroker } from './infra';
import { loadLocalSecrets } from './local-secrets';

const secrets = loadLocalSecrets(join(resolve(__dirname, '..', '..'), '.sika'));
process.stdout.write(`${JSON.stringify(brokerDefinitions(localBroker(process.env, secrets)), null, 2)}\n`);
