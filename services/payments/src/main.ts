import { runService } from '@sika/platform';
import { composePayments } from './compose';
import { configSchema } from './config';

runService('payments', configSchema, (config) => composePayments(config));
