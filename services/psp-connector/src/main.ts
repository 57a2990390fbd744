import { runService } from '@sika/platform';
import { composePspConnector } from './compose';
import { configSchema } from './config';

runService('psp-connector', configSchema, (config) => composePspConnector(config));
