import { runService } from '@sika/platform';
import { composeSimulator } from './compose';
import { configSchema } from './config';

runService('pispi-simulator', configSchema, (config) => composeSimulator(config));
