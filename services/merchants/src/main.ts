// First: tracing patches the modules it instruments as they load (off unless OTEL_* variables say where).
import './tracing';
import { runService } from '@sika/platform';
import { composeMerchants } from './compose';
import { configSchema } from './config';

runService('merchants', configSchema, (config) => composeMerchants(config));
