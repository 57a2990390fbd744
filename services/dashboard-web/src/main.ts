import { runService } from '@sika/platform';

import { composeDashboard } from './compose';
import { configSchema } from './config';

runService('dashboard-web', configSchema, (config) => composeDashboard(config));
