import { runService } from '@sika/platform';
import { composeWebhookDispatcher } from './compose';
import { configSchema } from './config';

runService('webhook-dispatcher', configSchema, (config) => composeWebhookDispatcher(config));
