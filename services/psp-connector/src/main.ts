// First: tracing patches the modules it instruments as they load (off unless OTEL_* variables say where).
import './tracing';
import { runService } from '@sika/platform';
import { composePspConnector } from './compose';
import { configSchema } from './config';

runService('psp-connector', configSchema, (config) => composePspConnector(config));
