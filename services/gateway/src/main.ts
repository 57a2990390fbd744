import { runService } from '@sika/platform';
import { composeGateway } from './compose';
import { configSchema } from './config';

runService('gateway', configSchema, (config) => composeGateway(config));
