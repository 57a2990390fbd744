import { runService } from '@sika/platform';
import { composePayouts } from './compose';
import { configSchema } from './config';

runService('payouts', configSchema, (config) => composePayouts(config));
