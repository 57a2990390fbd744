import { runService } from '@sika/platform';
import { composeLedger } from './compose';
import { configSchema } from './config';

runService('ledger', configSchema, (config) => composeLedger(config));
