import { runService } from '@sika/platform';
import { composeMerchants } from './compose';
import { configSchema } from './config';

runService('merchants', configSchema, (config) => composeMerchants(config));
