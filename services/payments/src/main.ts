// First: tracing patches the modules it instruments as they load (off unless OTEL_* variables say where).
import './tracing';
import { runService } from '@sika/platform';
import { composePayments } from './compose';
import { configSchema } from './config';

runService('payments', configSchema, (config) => composePayments(config));
